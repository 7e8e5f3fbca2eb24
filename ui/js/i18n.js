// The UI's strings in Chinese and English. `t(key, vars)` looks a key up in the current
// language; `{name}` placeholders are filled from `vars`. Here: the strings every game uses;
// each board module brings its own (boards/<game>.strings.js, added by `addStrings`).

const zh = {
  appName: '华容',
  appTagline: '数字华容道 · 华容道 · 2048',
  play: '开始',
  continue: '继续',
  continueWhat: '继续：{mode}',
  levels: '选关',
  dailyToday: '今日挑战',
  dailyDone: '已完成',
  dailyPlaying: '进行中',
  dailyNotYet: '还没完成',
  dailyToPlay: '待挑战',
  dailyStreak: '{n} 天',
  dailyStreak1: '1 天',
  dailyStreakLong: '每日挑战已连续完成 {n} 天',
  dailyStreakLong1: '今天的每日挑战已完成',
  'today.play': '开始挑战',
  'today.continue': '继续挑战',
  'today.allDone': '今天的挑战全部完成！明天再来',
  settings: '设置',
  enterCode: '输入或粘贴代码',
  back: '返回',
  moves: '步数',
  time: '用时',
  best: '最佳',
  score: '分数',
  bestTile: '最大块',
  bestScore: '最高分',
  bestShort: '最高分',
  undo: '撤销',
  redo: '重做',
  restart: '重来',
  hint: '提示',
  solve: '自动解',
  stop: '停止',
  autoPlay: '自动玩',
  thinking: '思考中…',
  noBest: '—',
  // new game, slots, back
  'newGame.title': '开始新游戏？',
  'newGame.ask': '这局还没完成（已走 {moves}）。开始新游戏，这局就没了，无法找回。',
  'replace.title': '放弃进行中的游戏？',
  'replace.confirm': '放弃并打开',
  'replace.ask': '同一个位置还有一局没完成的游戏。打开这一局，那局就没了，无法找回。',
  cancel: '取消',
  ok: '确定',
  unfinishedOf: '{game}的其他未完成游戏',
  'modeTitle.free': '自由局',
  'modeTitle.level': '关卡',
  'modeTitle.daily': '今日挑战',
  'modeTitle.challenge': '好友挑战',
  moves1: '1 步',
  movesN: '{n} 步',
  locale: 'zh-CN',
  'band.random': '随机生成关卡',
  more: '更多',
  'code.challenges': '{name}向你挑战',
  'code.challengesAnon': '一位好友向你挑战',
  'more.solveNote': '让电脑替你走完这一局（不计成绩）。',
  'more.guardedDaily': '这是今日挑战：放弃之后才能看答案。',
  'more.guardedFriend': '这是好友的挑战：放弃之后才能看答案。',
  'solve.title': '自动解这一局？',
  'solve.ask': '电脑会一步步走完这一局，这局不计成绩。',
  'autoPlay.title': '让电脑接着玩？',
  'autoPlay.ask': '电脑会一步步接着玩，这局不计成绩。',
  giveUp: '放弃',
  'giveUp.title': '放弃这一局？',
  'giveUp.daily': '今天的这道挑战就不算完成了，电脑会演示解法。',
  'giveUp.friend': '这次就不算赢过好友了，电脑会演示解法。',
  padSetting: '2048 方向键',
  'padSetting.help': '在棋盘下方显示上下左右按钮',
  // level select
  newGame: '新游戏',
  random: '随机',
  stars: '{n} 星',
  stars1: '1 星',
  locked: '未解锁',
  minMoves: '最少 {n} 步',
  noSolution: '无解',
  // settings
  language: '语言',
  'lang.system': '跟随系统',
  'lang.zh': '中文',
  'lang.en': 'English',
  theme: '主题',
  'theme.system': '跟随系统',
  'theme.light': '浅色',
  'theme.dark': '深色',
  haptics: '触感反馈',
  sound: '声音',
  moveRule: '计步规则',
  'rule.tile': '按块计（每块移动一格算一步）',
  'rule.line': '按行计（整行推动算一步）',
  'rule.piece': '按子计（一子连续移动算一步）',
  'rule.straight': '按直线计（直线滑动算一步）',
  'rule.cell': '按格计（移动一格算一步）',
  // finish
  solved: '成功！',
  gameOver: '无路可走',
  yourMoves: '你的步数',
  optimalMoves: '最优步数',
  newRecord: '新纪录',
  share: '分享',
  next: '下一关',
  again: '再来一局',
  keepPlaying: '继续玩',
  sendBack: '把成绩发回去',
  finRecords: '查看我的战绩',
  getApp: '下载华容 App',
  elsewhere: '华容已在另一个标签页打开：刷新本页即可在这里继续玩',
  shareToday: '分享今天的成绩',
  close: '关闭',
  shared: '分享卡片已保存：{path}',
  sharedDone: '已分享',
  usedUndo: '用过撤销',
  usedHint: '用过提示 {n} 次',
  usedHint1: '用过提示 1 次',
  autoSolved: '自动解完成',
  challengeFriend: '挑战好友',
  'fin.finding': '正在找最优解…',
  'fin.perfect': '完美！最少步数',
  'fin.hinted': '最少步数，但用了提示',
  'fin.over': '比最优解多 {n} 步',
  'fin.over1': '只比最优解多 1 步',
  'fin.unrated': '这一局太难，没能算出最优解，不评星',
  'fin.streak': '连续 {n} 天',
  'fin.streak1': '每日挑战 ✓',
  // the finish's one next step (Rust's `finish.next`) and its verdict sentences
  'next.next-level': '下一关',
  'next.again': '再来一局',
  'next.next-daily': '下一个：{game} ({n}/{of})',
  'next.share': '炫耀一下',
  'next.send-back': '把成绩发回去',
  'next.retry': '再试一次',
  'next.retry.2048': '再来一局',
  'next.keep': '继续',
  'next.new-run': '再来一轮',
  'next.edit': '返回编辑',
  'fin.share': '分享',
  'chal.friend': '朋友',
  'ghost.friend': '{name}的影子',
  'ghost.best': '你的最佳',
  'ghost.bestName': '你的最佳成绩',
  'ghost.hide': '隐藏',
  'ghost.show': '显示影子',
  'ghost.ahead': '快 {s} 秒',
  'ghost.behind': '慢 {s} 秒',
  'ghost.even': '持平',
  'ghost.moves': '{k}/{n} 步',
  'ghost.raceTitle': '分段对比',
  'ghost.raceBest': '挑战你的最佳',
  'split.row': '第 {k} 行',
  'split.col': '第 {k} 列',
  'split.q3': '走完 1/4',
  'split.q2': '走完一半',
  'split.q1': '走完 3/4',
  'split.tile': '{n} 方块',
  'fin.title.beaten': '你赢了{name}！',
  'fin.title.tied': '和{name}打平！',
  'fin.title.lost': '{name}赢了这一局',
  'chal.wonMoves': '{mine}，比{name}的 {moves}更少',
  'chal.wonTime': '同样 {moves}，比{name}快 {s} 秒',
  'chal.tied': '和{name}打平：{moves}，{time}',
  'chal.perfectSlower': '步数完美——{name}快了 {s} 秒',
  'chal.slower': '同样 {moves}，{name}快了 {s} 秒',
  'chal.lost': '还没赢过{name}：{moves}、{time}',
  'chal.wonScore': '你赢了{name}！{mine} 分，超过{name}的 {score} 分',
  'chal.lostScore': '还没赢过{name}的 {score} 分',
  'friends.place': '第 {rank} 名，共 {of} 人',
  'friends.placeNone': '第 {rank} 名，共 {of} 人',
  // code
  codeField: '分享码或链接',
  codeHelp: '把朋友发来的分享码或链接粘贴到这里，就能玩同一局。',
  codePlaceholder: '在这里粘贴分享码',
  paste: '粘贴',
  'paste.empty': '剪贴板是空的。先复制朋友发来的链接或代码，再点“粘贴”。',
  'paste.none': '剪贴板里没有游戏链接或代码。也可以直接在上面的框里输入代码。',
  'paste.refused': '这里读不到剪贴板。请长按上面的输入框，选择“粘贴”。',
  open: '打开',
  // announcements
  'say.moved': '第 {moves} 步',
  'say.blocked': '这里走不动',
  'say.won': '成功！共 {moves}',
  'say.lost': '游戏结束，分数 {score}',
  'say.hint': '提示：{what}',
  'say.hintOptimal': '最优提示：{what}',
  'say.undo': '已撤销，现在 {moves}',
  'say.redo': '已重做，现在 {moves}',
  'say.restart': '已重来',
  'say.solving': '自动解：共 {moves}',
  'say.stopped': '已停止',
  // labels
  keysHelp: '方向键移动 · Z 撤销 · Y 重做 · H 提示',
  controlsLabel: '游戏操作',
  // notices & errors
  'err.illegal_move': '这步不合规则',
  'err.parse': '看不懂这段内容：{message}',
  'err.unsolvable': '这个局面无解',
  'err.unsupported': '这个游戏不支持',
  'err.nothing_to_undo': '没有可撤销的步',
  'err.nothing_to_redo': '没有可重做的步',
  'err.bad_code': '这个分享码用不了：{message}',
  'err.share_failed': '分享没有成功：{message}',
  'err.generic': '{message}',
  restored: '存档损坏，已从备份恢复',
  // Friends' board, result codes, replays, the display name.
  'friends.title': '好友排行',
  'friends.empty': '还没有好友的成绩。把今天的成绩发给好友，他们回发的代码会出现在这里。',
  'friends.aFriend': '一位好友',
  'friends.me': '我',
  'friends.verified': '已回放',
  'friends.verifiedLong': '步数已回放验证，用时为对方所报',
  'friends.claimedTime': '对方所报用时（未验证）',
  'friends.assisted': '有辅助',
  'friends.assistedLong': '用过提示或悔棋',
  'friends.plain': '未验证',
  'friends.rank': '第 {n} 名',
  'friends.rankOf': '你在 {total} 人中排第 {n}',
  'challenge.from': '{name} 的成绩',
  'chal.beatName': '{name} 用 {moves}、{time} 完成了这一局，你能赢过吗？',
  'challenge.watch': '观看回放',
  'share.withReplay': '代码里带着你的每一步，好友可以观看回放',
  'replay.title': '回放',
  'replay.of': '{name} 的回放',
  'replay.play': '播放',
  'replay.pause': '暂停',
  'replay.stepBack': '上一步',
  'replay.step': '下一步',
  'replay.speed': '速度 {x}×',
  'replay.position': '第 {i} / {n} 步',
  'replay.none': '这局没有可回放的步骤',
  'replay.watch': '回放',
  'settings.name': '我的昵称',
  'settings.nameHelp': '发给好友的成绩代码里带着它（最多 16 个字）。不填则显示为“一位好友”。',
  'settings.namePlaceholder': '昵称',
  'settings.nameSaved': '昵称已保存',
};

const en = {
  appName: 'Huarong',
  appTagline: 'Number slide · Klotski · 2048',
  play: 'Play',
  continue: 'Continue',
  continueWhat: 'Continue: {mode}',
  levels: 'Levels',
  dailyToday: "Today's challenge",
  dailyDone: 'Done',
  dailyPlaying: 'in progress',
  dailyNotYet: 'not done yet',
  dailyToPlay: 'to play',
  dailyStreak: '{n} days',
  'dailyStreak.one': '1 day',
  dailyStreak1: '1 day',
  dailyStreakLong: 'Daily challenges solved {n} days in a row',
  dailyStreakLong1: 'Daily challenge solved: day one of a streak',
  'today.play': 'Play now',
  'today.continue': 'Continue',
  'today.allDone': 'All done for today. See you tomorrow!',
  settings: 'Settings',
  enterCode: 'Enter or paste a code',
  back: 'Back',
  moves: 'Moves',
  time: 'Time',
  best: 'Best',
  score: 'Score',
  bestTile: 'Best tile',
  bestScore: 'Best score',
  bestShort: 'Best',
  undo: 'Undo',
  redo: 'Redo',
  restart: 'Restart',
  hint: 'Hint',
  solve: 'Solve',
  stop: 'Stop',
  autoPlay: 'Auto',
  thinking: 'Thinking…',
  noBest: '—',
  // new game, slots, back
  'newGame.title': 'Start a new game?',
  'newGame.ask': 'This game is not finished ({moves} so far). If you start a new one, this game will be lost for good.',
  'replace.title': 'Give up the game in progress?',
  'replace.confirm': 'Give up and open',
  'replace.ask': 'Another game is still in progress here. If you open this one, that game will be lost for good.',
  cancel: 'Cancel',
  ok: 'OK',
  unfinishedOf: 'Other unfinished {game} games',
  'modeTitle.free': 'Free game',
  'modeTitle.level': 'Level',
  'modeTitle.daily': "Today's challenge",
  'modeTitle.challenge': "Friend's challenge",
  moves1: '1 move',
  movesN: '{n} moves',
  locale: 'en-GB',
  'band.random': 'A random new level',
  more: 'More',
  'code.challenges': '{name} challenges you',
  'code.challengesAnon': 'A friend challenges you',
  'more.solveNote': 'Let the computer finish this game for you (it will not count).',
  'more.guardedDaily': 'This is today\'s challenge: the answer shows only once you give up.',
  'more.guardedFriend': 'This is a friend\'s challenge: the answer shows only once you give up.',
  'solve.title': 'Solve this game?',
  'solve.ask': 'The computer plays it to the end, move by move. This game will not count.',
  'autoPlay.title': 'Let the computer play?',
  'autoPlay.ask': 'The computer plays on, move by move. This game will not count.',
  giveUp: 'Give up',
  'giveUp.title': 'Give up this game?',
  'giveUp.daily': 'Today\'s challenge will not count as done; the computer shows a solution.',
  'giveUp.friend': 'You will not beat your friend this time; the computer shows a solution.',
  padSetting: '2048 direction pad',
  'padSetting.help': 'Up, down, left and right buttons under the board',
  newGame: 'New game',
  random: 'Random',
  stars: '{n} stars',
  'stars.one': '1 star',
  stars1: '1 star',
  locked: 'Locked',
  minMoves: '{n} moves at best',
  noSolution: 'No solution',
  language: 'Language',
  'lang.system': 'System',
  'lang.zh': '中文',
  'lang.en': 'English',
  theme: 'Theme',
  'theme.system': 'System',
  'theme.light': 'Light',
  'theme.dark': 'Dark',
  haptics: 'Haptics',
  sound: 'Sound',
  moveRule: 'Move counting',
  'rule.tile': 'Tile moves (each tile step counts)',
  'rule.line': 'Line moves (a pushed run counts 1)',
  'rule.piece': 'Piece moves (one piece, any path)',
  'rule.straight': 'Straight slides (one straight slide counts 1)',
  'rule.cell': 'One-cell steps (each cell counts 1)',
  solved: 'Solved!',
  gameOver: 'No moves left',
  yourMoves: 'Your moves',
  optimalMoves: 'Optimal',
  newRecord: 'New record',
  share: 'Share',
  next: 'Next level',
  again: 'Play again',
  keepPlaying: 'Keep going',
  sendBack: 'Send your result back',
  finRecords: 'See your records',
  getApp: 'Get the app',
  elsewhere: 'Huarong is open in another tab: reload this one to play here',
  shareToday: "Share today's result",
  close: 'Close',
  shared: 'Share card saved: {path}',
  sharedDone: 'Shared',
  usedUndo: 'undo used',
  usedHint: '{n} hints used',
  'usedHint.one': '1 hint used',
  usedHint1: '1 hint used',
  autoSolved: 'auto-solved',
  challengeFriend: 'Challenge a friend',
  'fin.finding': 'Finding the best solution…',
  'fin.perfect': 'Perfect! The fewest moves',
  'fin.hinted': 'The fewest moves, with a hint',
  'fin.over': '{n} moves more than the best',
  'fin.over.one': '1 move more than the best',
  'fin.over1': 'Just 1 move more than the best',
  'fin.unrated': 'Too hard to rate: the best solution is out of reach',
  'fin.streak': '{n}-day streak',
  'fin.streak1': 'Daily done ✓',
  'next.next-level': 'Next level',
  'next.again': 'Play again',
  'next.next-daily': 'Next: {game} ({n}/{of})',
  'next.share': 'Show your friends',
  'next.send-back': 'Send your result back',
  'next.retry': 'Try again',
  'next.retry.2048': 'Try again',
  'next.keep': 'Keep going',
  'next.new-run': 'New run',
  'next.edit': 'Back to the editor',
  'fin.share': 'Share',
  'chal.friend': 'your friend',
  'ghost.friend': "{name}'s ghost",
  'ghost.best': 'Your best',
  'ghost.bestName': 'your best',
  'ghost.hide': 'Hide',
  'ghost.show': 'Show ghost',
  'ghost.ahead': '−{s} s',
  'ghost.behind': '+{s} s',
  'ghost.even': '±0.0 s',
  'ghost.moves': '{k}/{n} moves',
  'ghost.raceTitle': 'Split by split',
  'ghost.raceBest': 'Race your best',
  'split.row': 'Row {k}',
  'split.col': 'Column {k}',
  'split.q3': 'A quarter of the way',
  'split.q2': 'Halfway',
  'split.q1': 'Three quarters',
  'split.tile': '{n} tile',
  'fin.title.beaten': 'You beat {name}!',
  'fin.title.tied': 'A tie with {name}!',
  'fin.title.lost': '{name} wins this one',
  'chal.wonMoves': 'You beat {name}: {mine} to {moves}',
  'chal.wonTime': 'You beat {name}: the same {moves}, {s} s faster',
  'chal.tied': 'Same as {name}: {moves}, {time}',
  'chal.perfectSlower': 'Perfect moves — {name} was {s} s faster',
  'chal.slower': 'The same {moves} — {name} was {s} s faster',
  'chal.lost': 'Not beaten yet: {name} took {moves}, {time}',
  'chal.wonScore': 'You beat {name}: {mine} points to {score}',
  'chal.lostScore': 'Not beaten yet: {name} scored {score}',
  'friends.place': 'You beat {beat} of {friends} friends',
  'friends.placeNone': '#{rank} of {of}',
  codeField: 'Code or link',
  codeHelp: 'Paste a share code or link a friend sent you, and play the same puzzle.',
  codePlaceholder: 'Paste the share code here',
  paste: 'Paste',
  'paste.empty': 'The clipboard is empty. Copy the link or code your friend sent, then tap Paste.',
  'paste.none': 'The clipboard holds no game link or code. You can also type the code in the box above.',
  'paste.refused': 'The clipboard cannot be read here. Long-press the box above and choose Paste.',
  open: 'Open',
  'say.moved': 'Move {moves}',
  'say.blocked': "Can't move there",
  'say.won': 'Solved in {moves}',
  'say.lost': 'Game over, score {score}',
  'say.hint': 'Hint: {what}',
  'say.hintOptimal': 'Optimal hint: {what}',
  'say.undo': 'Undone, {moves} now',
  'say.redo': 'Redone, {moves} now',
  'say.restart': 'Restarted',
  'say.solving': 'Auto-solve: {moves}',
  'say.stopped': 'Stopped',
  keysHelp: 'Arrows move · Z undo · Y redo · H hint',
  controlsLabel: 'Game controls',
  'err.illegal_move': 'That move is not allowed',
  'err.parse': 'This could not be read: {message}',
  'err.unsolvable': 'This position has no solution',
  'err.unsupported': 'Not available for this game',
  'err.nothing_to_undo': 'Nothing to undo',
  'err.nothing_to_redo': 'Nothing to redo',
  'err.bad_code': 'This share code does not work: {message}',
  'err.share_failed': 'Sharing did not work: {message}',
  'err.generic': '{message}',
  restored: 'The save file was damaged; restored from the backup',
  // Friends' board, result codes, replays, the display name.
  'friends.title': 'Friends',
  'friends.empty': "No friends' results yet. Send today's result to friends; the codes they send back show here.",
  'friends.aFriend': 'a friend',
  'friends.me': 'Me',
  'friends.verified': 'replayed',
  'friends.verifiedLong': 'moves verified by replay; the time is as claimed',
  'friends.claimedTime': 'time as claimed (not verified)',
  'friends.assisted': 'assisted',
  'friends.assistedLong': 'helped by hints or undo',
  'friends.plain': 'not verified',
  'friends.rank': '#{n}',
  'friends.rankOf': 'You are #{n} of {total}',
  'challenge.from': "{name}'s result",
  'chal.beatName': '{name} solved this in {moves} and {time}. Can you beat that?',
  'challenge.watch': 'Watch the replay',
  'share.withReplay': 'The code carries every move: friends can watch the replay',
  'replay.title': 'Replay',
  'replay.of': "{name}'s replay",
  'replay.play': 'Play',
  'replay.pause': 'Pause',
  'replay.stepBack': 'Step back',
  'replay.step': 'Step',
  'replay.speed': 'Speed {x}×',
  'replay.position': 'Move {i} / {n}',
  'replay.none': 'This game has no moves to replay',
  'replay.watch': 'Replay',
  'settings.name': 'My name',
  'settings.nameHelp': 'Result codes you send carry it (at most 16 characters). Empty: you show as "a friend".',
  'settings.namePlaceholder': 'Name',
  'settings.nameSaved': 'Name saved',
};

import { zh16, en16 } from './strings16.js';

Object.assign(zh, zh16);
Object.assign(en, en16);
const TABLES = { zh, en };
let lang = 'en';

/** The language to use when the setting says "system". */
export function systemLanguage() {
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  return String(langs[0] || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function setLanguage(choice) {
  lang = choice === 'zh' || choice === 'en' ? choice : systemLanguage();
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}

/**
 * Add a board's own strings `{ zh: {…}, en: {…} }` to the tables (the board registry does, as it
 * loads). A key that is already there, or a language other than zh and en, is a bug: it throws.
 */
export function addStrings(tables) {
  const langs = Object.entries(tables || {});
  for (const [code, table] of langs) {
    if (!TABLES[code]) throw new Error(`strings for an unknown language ${code}`);
    const twice = Object.keys(table).find((key) => key in TABLES[code]);
    if (twice) throw new Error(`string ${twice} (${code}) is defined twice`);
  }
  for (const [code, table] of langs) Object.assign(TABLES[code], table);
}

export function language() {
  return lang;
}

export function t(key, vars) {
  // A count of one (`n`, or `lost`) reads the key's `.one` form where the language has one
  // ("1 more game", not "1 more games"); Chinese needs none.
  const count = vars ? (vars.n !== undefined ? vars.n : vars.lost) : undefined;
  if (count !== undefined && Number(count) === 1 && TABLES[lang][`${key}.one`] !== undefined) key = `${key}.one`;
  let s = TABLES[lang][key];
  if (s === undefined) s = en[key];
  if (s === undefined) return key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined ? m : String(vars[k])));
  return s;
}

/** Keys present in one language only (the E2E language test expects none: `window.__huarongI18n`). */
export function missingKeys() {
  // `.one` forms are per language (English has them, Chinese needs none).
  const a = Object.keys(zh).filter((k) => !(k in en) && !k.endsWith('.one'));
  const b = Object.keys(en).filter((k) => !(k in zh) && !k.endsWith('.one'));
  return a.concat(b);
}

/** "1 move" / "5 moves" (一 步 / 5 步): every count of moves the player reads goes through here. */
export function movesText(n) {
  return Number(n) === 1 ? t('moves1') : t('movesN', { n });
}

const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS_EN = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAYS_ZH = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];

/**
 * The app's one date format: `YYYY-MM-DD` (or a Date / ms) → "12月1日" / "1 Dec"; the year only
 * when it is not `thisYear` (default: the current year); `weekday`: "12月1日 周二" / "Tue 1 Dec".
 * Written out by hand, not by Intl: the same text on every WebView, whatever its locale data.
 */
export function formatDate(date, opts = {}) {
  let y;
  let m;
  let d;
  const ymd = /^(\d{4})-(\d{2})-(\d{2})$/.exec(typeof date === 'string' ? date : '');
  if (ymd) [y, m, d] = [Number(ymd[1]), Number(ymd[2]), Number(ymd[3])];
  else {
    const dt = date instanceof Date ? date : new Date(Number(date));
    if (Number.isNaN(dt.getTime())) return String(date || '');
    [y, m, d] = [dt.getFullYear(), dt.getMonth() + 1, dt.getDate()];
  }
  const wd = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  const thisYear = opts.thisYear || new Date().getFullYear();
  const withYear = y !== Number(thisYear);
  if (lang === 'zh') return `${withYear ? `${y}年` : ''}${m}月${d}日${opts.weekday ? ` ${DAYS_ZH[wd]}` : ''}`;
  return `${opts.weekday ? `${DAYS_EN[wd]} ` : ''}${d} ${MONTHS_EN[m - 1]}${withYear ? ` ${y}` : ''}`;
}

/** m:ss (h:mm:ss from an hour); `tenths`: m:ss.d (tenths are cut, never rounded up). */
export function formatTime(ms, tenths) {
  const all = Math.max(0, Math.floor(ms || 0));
  const total = Math.floor(all / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  const tail = tenths ? `.${Math.floor((all % 1000) / 100)}` : '';
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}${tail}` : `${m}:${s}${tail}`;
}
