// The stand-in board's own strings (Chinese and English; boards/lights.js). The board
// registry (boards/index.js) adds them to the tables of i18n.js.

export const strings = {
  zh: {
    'game.lights': '关灯',
    'gameShort.lights': '关灯',
    'gameDesc.lights': '点一盏灯，它和两旁的灯一起切换：把灯全关掉',
    'levels.lights': '一排灯',
    'lights.row': '{n} 盏灯',
    'hint.lights': '点第 {n} 盏灯',
    'label.board.lights': '一排 {n} 盏灯',
    'label.lightOn': '第 {n} 盏灯：亮',
    'label.lightOff': '第 {n} 盏灯：灭',
    lightsOut: '灯全关了！',
  },
  en: {
    'game.lights': 'Lights Out',
    'gameShort.lights': 'Lights',
    'gameDesc.lights': 'A tap flips a light and its neighbours: turn every light off',
    'levels.lights': 'A row of lights',
    'lights.row': '{n} lights',
    'hint.lights': 'tap light {n}',
    'label.board.lights': 'a row of {n} lights',
    'label.lightOn': 'light {n}: on',
    'label.lightOff': 'light {n}: off',
    lightsOut: 'All the lights are out!',
  },
};
