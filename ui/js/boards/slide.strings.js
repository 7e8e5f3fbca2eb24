// The number slide board's own strings (Chinese and English). The board registry
// (boards/index.js) adds them to the tables of i18n.js; strings every game uses stay there.

export const strings = {
  zh: {
    'game.slide': '数字华容道',
    'gameShort.slide': '数字华容道',
    'gameDesc.slide': '把数字按顺序排好',
    'levels.slide': '棋盘大小',
    'rule.slide': '数字华容道',
    'hint.slide': '移动 {tile}',
    'label.board.slide': '{w}×{h} 数字华容道棋盘',
    'label.tile': '数字 {n}，第 {row} 行第 {col} 列',
    'diff.easy': '简单',
    'diff.medium': '中等',
    'diff.hard': '困难',
    'diff.expert': '专家',
    sizeLabel: '{w}×{h}',
  },
  en: {
    'game.slide': 'Number slide',
    'gameShort.slide': 'Slide',
    'gameDesc.slide': 'Put the numbers in order',
    'levels.slide': 'Board size',
    'rule.slide': 'Number slide',
    'hint.slide': 'move {tile}',
    'label.board.slide': '{w} by {h} number slide board',
    'label.tile': '{n}, row {row}, column {col}',
    'diff.easy': 'Easy',
    'diff.medium': 'Medium',
    'diff.hard': 'Hard',
    'diff.expert': 'Expert',
    sizeLabel: '{w}×{h}',
  },
};
