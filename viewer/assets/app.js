// hammer view: the page. Plain JavaScript, no build step. Every page is a hash route
// (#/browse?..., #/game?..., #/play?..., #/live), so each view has a stable link.
'use strict';

const $ = (sel, root = document) => root.querySelector(sel);
const main = () => $('#main');
const SVGNS = 'http://www.w3.org/2000/svg';
let meta = null;
let liveTimer = null;

function el(tag, attrs = {}, ...children) {
  const node = tag.startsWith('svg:') ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'onclick' || k === 'onchange' || k === 'oninput' || k === 'onsubmit') node.addEventListener(k.slice(2), v);
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function showMessage(text, kind = 'error') {
  const m = $('#message');
  if (!text) { m.hidden = true; m.textContent = ''; return; }
  m.hidden = false;
  m.className = kind === 'info' ? 'info' : '';
  m.textContent = text;
}

async function api(path, params = {}, options = {}) {
  const q = new URLSearchParams(params).toString();
  let response;
  try {
    response = await fetch(path + (q ? '?' + q : ''), options);
  } catch (e) {
    throw new Error('the hammer view server does not answer: ' + e.message);
  }
  let body;
  try { body = await response.json(); } catch (e) { body = { error: 'the server sent no JSON (HTTP ' + response.status + ')' }; }
  if (!response.ok) throw new Error(body.error || ('HTTP ' + response.status));
  return body;
}

function fmtInt(x) { return x === null || x === undefined ? '' : Number(x).toLocaleString('en-US'); }
function fmtSecs(s) {
  if (s === null || s === undefined) return '—';
  if (s < 60) return s.toFixed(0) + ' s';
  if (s < 3600) return (s / 60).toFixed(1) + ' min';
  return (s / 3600).toFixed(1) + ' h';
}

// A rate as [value element, unit]: per second, minute or hour, whichever keeps its digits
// (8x8 sweeps make a few games a minute). The same units as `hammer status`.
function rateParts(perSecond) {
  if (perSecond > 0 && perSecond < 1 / 60) return [perSecond * 3600, 'games/h'];
  if (perSecond > 0 && perSecond < 1) return [perSecond * 60, 'games/min'];
  return [perSecond, 'games/s'];
}
function fmtRate(perSecond) {
  const [value, unit] = rateParts(perSecond);
  return [el('b', { id: 'live-rate' }, value.toFixed(1)), unit];
}
function fmtRateText(perSecond) {
  const [value, unit] = rateParts(perSecond);
  return `${value.toFixed(1)} ${unit}`;
}

function route() {
  const hash = location.hash || '#/browse';
  const [path, query] = hash.slice(1).split('?');
  return { path, params: new URLSearchParams(query || '') };
}

function setNav(path) {
  for (const a of document.querySelectorAll('nav a')) {
    a.classList.toggle('active', path.startsWith('/' + a.id.replace('nav-', '')) || (path === '/game' && a.id === 'nav-browse'));
  }
}

async function refreshMeta() {
  try {
    meta = await api('/api/meta');
  } catch (e) {
    meta = { state: 'failed', error: e.message };
  }
  const s = $('#dataset-status');
  if (meta.state === 'ready') s.textContent = `${meta.dir}: ${fmtInt(meta.rows)} rows in ${fmtInt(meta.parts)} parts (read in ${meta.load_seconds.toFixed(1)} s)`;
  else if (meta.state === 'loading') s.textContent = `reading ${meta.dir}: ${meta.parts_read} of ${meta.parts} parts`;
  else if (meta.state === 'failed') s.textContent = 'dataset not loaded';
  else s.textContent = 'no dataset';
  return meta;
}

async function render() {
  if (liveTimer) { clearInterval(liveTimer); liveTimer = null; }
  showMessage('');
  const { path, params } = route();
  setNav(path);
  main().replaceChildren();
  try {
    // The family list comes with the dataset's description: the game and play pages need it.
    if (!meta || !meta.families) await refreshMeta();
    if (path === '/game') await renderGame(params);
    else if (path === '/play') await renderPlay(params);
    else if (path === '/live') await renderLive(params);
    else await renderBrowse(params);
  } catch (e) {
    showMessage(e.message);
  }
}

// ---------------------------------------------------------------- browse

// [sort key or null, heading, numeric]. A heading names the unit its cells show: the
// API's wall_ns is shown in milliseconds.
const COLUMNS = [
  ['experiment', 'experiment', false], ['config', 'config', false], ['n', 'n', true],
  ['game_index', 'game_index', true], ['score', 'score', true], [null, 'solvable', false],
  [null, 'exhaustive', false], ['expansions', 'expansions', true], ['wall_ns', 'wall ms', true],
];

function distinct(key) {
  const values = new Set((meta.groups || []).map(g => g[key]));
  return [...values].sort((a, b) => (typeof a === 'number' ? a - b : String(a).localeCompare(String(b))));
}

function selectField(name, label, values, current) {
  return el('label', {}, label, el('select', { name },
    el('option', { value: '' }, 'any'),
    values.map(v => el('option', { value: v, selected: String(v) === current }, String(v)))));
}

function numberField(name, label, current) {
  return el('label', {}, label, el('input', { type: 'number', name, value: current || '' }));
}

async function renderBrowse(params) {
  await refreshMeta();
  if (meta.state === 'loading') {
    showMessage(`Reading the dataset: ${meta.parts_read} of ${meta.parts} parts…`, 'info');
    setTimeout(() => { if (route().path === '/browse' || route().path === '') render(); }, 500);
    return;
  }
  if (meta.state !== 'ready') {
    const text = meta.state === 'absent' ? 'No dataset: start `hammer view DATASET` to browse one.' : meta.error;
    main().append(el('div', { class: 'panel', id: 'dataset-error' }, text,
      meta.dir ? el('p', {}, el('button', { class: 'action', onclick: reload }, 'Read the dataset again')) : null));
    if (meta.state === 'failed') showMessage(meta.error);
    return;
  }
  const p = (k) => params.get(k) || '';
  const form = el('form', { class: 'filters', id: 'filters' },
    selectField('puzzle', 'puzzle', distinct('puzzle'), p('puzzle')),
    selectField('experiment', 'experiment', distinct('experiment'), p('experiment')),
    selectField('config', 'configuration', distinct('config'), p('config')),
    selectField('n', 'size n', distinct('n'), p('n')),
    selectField('solvable', 'solvable', ['true', 'false'], p('solvable')),
    selectField('exhaustive', 'exact', ['true', 'false'], p('exhaustive')),
    numberField('score_min', 'score ≥', p('score_min')),
    numberField('score_max', 'score ≤', p('score_max')),
    numberField('exp_min', 'expansions ≥', p('exp_min')),
    numberField('exp_max', 'expansions ≤', p('exp_max')),
    el('label', {}, 'sort by', el('select', { name: 'sort' },
      ['dataset', 'game_index', 'score', 'expansions', 'wall_ns', 'experiment', 'config', 'n']
        .map(v => el('option', { value: v, selected: v === (p('sort') || 'dataset') }, v)))),
    el('label', {}, 'order', el('select', { name: 'desc' },
      el('option', { value: 'false' }, 'ascending'),
      el('option', { value: 'true', selected: p('desc') === 'true' }, 'descending'))),
    el('label', {}, 'per page', el('select', { name: 'per' },
      [25, 50, 100, 250, 500].map(v => el('option', { value: v, selected: String(v) === (p('per') || '50') }, v)))),
    el('button', { class: 'action', type: 'submit', id: 'apply' }, 'Filter'),
    el('button', { class: 'action', type: 'button', onclick: reload }, 'Reload dataset'));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form).entries()) if (v !== '' && !(k === 'desc' && v === 'false') && !(k === 'sort' && v === 'dataset')) q.set(k, v);
    location.hash = '#/browse?' + q.toString();
  });
  form.addEventListener('change', (ev) => { if (ev.target.tagName === 'SELECT') form.requestSubmit(); });
  main().append(form);
  const query = Object.fromEntries(params.entries());
  const result = await api('/api/games', query);
  const page = Number(params.get('page') || 0);
  const per = result.per;
  const first = result.total === 0 ? 0 : page * per + 1;
  const last = Math.min(result.total, (page + 1) * per);
  const go = (delta) => { const q = new URLSearchParams(params); q.set('page', page + delta); location.hash = '#/browse?' + q; };
  const sortBy = (key) => {
    const q = new URLSearchParams(params);
    if (q.get('sort') === key) q.set('desc', q.get('desc') === 'true' ? 'false' : 'true'); else { q.set('sort', key); q.delete('desc'); }
    q.delete('page');
    location.hash = '#/browse?' + q;
  };
  const pager = el('div', { class: 'pager' },
    el('button', { onclick: () => go(-1), disabled: page === 0, id: 'prev' }, '◀ previous'),
    el('span', { id: 'total', 'data-total': result.total }, `games ${fmtInt(first)}–${fmtInt(last)} of ${fmtInt(result.total)}`),
    el('button', { onclick: () => go(1), disabled: last >= result.total, id: 'next' }, 'next ▶'),
    el('span', { class: 'muted', id: 'took' }, `answered in ${result.took_ms.toFixed(1)} ms`));
  const head = el('tr', {}, COLUMNS.map(([sortKey, heading, num]) =>
    el('th', { class: num ? 'num' : null, onclick: sortKey ? () => sortBy(sortKey) : null, title: sortKey ? 'sort' : null }, heading)));
  const body = result.rows.map(r => {
    const q = new URLSearchParams({ sweep: r.key.sweep, experiment: r.key.experiment, config: r.key.config, params: r.key.params, index: r.key.index });
    return el('tr', { class: 'game', 'data-key': q.toString(), onclick: () => { location.hash = '#/game?' + q; } },
      el('td', {}, r.key.experiment), el('td', {}, r.key.config),
      el('td', { class: 'num' }, r.n), el('td', { class: 'num' }, r.key.index),
      el('td', { class: 'num score' }, r.score), el('td', { class: 'solvable' }, r.solvable ? 'yes' : 'no'),
      el('td', {}, r.exhaustive ? 'exact' : 'at most'), el('td', { class: 'num expansions' }, fmtInt(r.expansions)),
      el('td', { class: 'num wall' }, (r.wall_ns / 1e6).toFixed(2)));
  });
  main().append(pager, el('table', { id: 'games', 'data-query': params.toString() }, el('thead', {}, head), el('tbody', {}, body)));
}

async function reload() {
  try {
    await api('/api/reload', {}, { method: 'POST' });
    await render();
  } catch (e) { showMessage(e.message); }
}

// ---------------------------------------------------------------- Martello board

const COLOURS = ['#e53935', '#43a047', '#f9a825', '#1e88e5', '#8e24aa', '#00acc1', '#f4511e', '#757575'];
const CELL = 56;

function parseMartello(state) {
  const rows = state.split('/');
  return rows.map(r => { const t = []; for (let i = 0; i + 2 <= r.length; i += 2) t.push(r.slice(i, i + 2)); return t; });
}

// Cells as the game shows them: first stone in the left white column, last in the
// right one, the others packed after the first; a lone stone on the left.
function layout(state) {
  const rows = parseMartello(state);
  const n = rows.length;
  const cells = new Map();
  rows.forEach((stones, r) => {
    stones.forEach((t, i) => {
      const c = stones.length >= 2 && i === stones.length - 1 ? n - 1 : i;
      cells.set(t, { r, c });
    });
  });
  return { n, cells };
}

function symbolMarks(g, symbol, cx, cy) {
  // 1 to 3: dots; 4: a ring; 5: a ring and a dot; 6: two rings; 7, 8: two rings and dots.
  const dot = (x, y) => g.append(el('svg:circle', { class: 'mark', cx: x, cy: y, r: 3.6 }));
  const ring = (r) => g.append(el('svg:circle', { class: 'ring', cx, cy, r }));
  if (symbol <= 3) {
    const offs = { 1: [[0, 0]], 2: [[-6, 0], [6, 0]], 3: [[-7, 4], [7, 4], [0, -7]] }[symbol];
    offs.forEach(([dx, dy]) => dot(cx + dx, cy + dy));
  } else {
    ring(9);
    if (symbol === 5 || symbol >= 7) dot(cx, cy);
    if (symbol >= 6) ring(15);
    if (symbol === 8) { dot(cx - 4, cy); dot(cx + 4, cy); }
  }
}

function drawBoard(state, opts = {}) {
  const { n, cells } = layout(state);
  // A lone stone stands in either white column: draw it on the side its move uses.
  if (opts.eater && opts.eaten && cells.has(opts.eater) && cells.has(opts.eaten)) {
    const rows = parseMartello(state);
    const lone = (t) => rows[cells.get(t).r].length === 1;
    for (const [a, b] of [[opts.eater, opts.eaten], [opts.eaten, opts.eater]]) {
      if (lone(a) && !lone(b) && cells.get(b).c === n - 1) cells.get(a).c = n - 1;
    }
  }
  const size = n * CELL;
  const svg = el('svg:svg', { class: 'board' + (opts.playable ? ' playable' : ''), id: 'board', width: size, height: size, viewBox: `0 0 ${size} ${size}`, 'data-state': state });
  const defs = el('svg:defs', {}, el('svg:marker', { id: 'arrowhead', markerWidth: 8, markerHeight: 8, refX: 6, refY: 4, orient: 'auto' }, el('svg:path', { d: 'M0,0 L8,4 L0,8 z', fill: '#fde047' })));
  svg.append(defs);
  for (const c of n >= 2 ? [0, n - 1] : [0]) svg.append(el('svg:rect', { class: 'whitecol', x: c * CELL, y: 0, width: CELL, height: size }));
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) svg.append(el('svg:rect', { class: 'cell', x: c * CELL, y: r * CELL, width: CELL, height: CELL }));
  const centre = (pos) => [pos.c * CELL + CELL / 2, pos.r * CELL + CELL / 2];
  for (const [token, pos] of cells) {
    const colour = token.charCodeAt(0) - 65;
    const symbol = Number(token[1]);
    const [cx, cy] = centre(pos);
    const cls = ['stone'];
    if (opts.eater === token) cls.push('eater');
    if (opts.eaten === token) cls.push('eaten');
    if (opts.last === token) cls.push('last');
    if (opts.selected === token) cls.push('selected');
    if (opts.targets && opts.targets.has(token)) cls.push('target');
    const g = el('svg:g', { class: cls.join(' '), 'data-token': token, 'data-row': pos.r, 'data-col': pos.c });
    g.append(el('svg:circle', { class: 'halo', cx, cy, r: CELL / 2 - 3 }));
    g.append(el('svg:circle', { class: 'body', cx, cy, r: CELL / 2 - 8, fill: COLOURS[colour % COLOURS.length] }));
    symbolMarks(g, symbol, cx, cy);
    g.append(el('svg:text', { x: pos.c * CELL + 4, y: pos.r * CELL + 12 }, token));
    g.append(el('svg:title', {}, token));
    if (opts.onStone) g.addEventListener('click', () => opts.onStone(token));
    svg.append(g);
  }
  if (opts.eater && opts.eaten && cells.has(opts.eater) && cells.has(opts.eaten)) {
    const [x1, y1] = centre(cells.get(opts.eater));
    const [x2, y2] = centre(cells.get(opts.eaten));
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const k = (CELL / 2 - 6) / len;
    // A double jump bends around the empty white cell it passes.
    const bend = Math.abs(y2 - y1) > CELL * 1.5 ? 18 * (cells.get(opts.eater).c === 0 ? 1 : -1) : 0;
    const mx = (x1 + x2) / 2 + bend, my = (y1 + y2) / 2;
    svg.append(el('svg:path', { class: 'arrow', id: 'move-arrow', d: `M${x1 + (x2 - x1) * k},${y1 + (y2 - y1) * k} Q${mx},${my} ${x2 - (x2 - x1) * k},${y2 - (y2 - y1) * k}` }));
  }
  for (const [token, label] of (opts.labels || new Map())) {
    if (!cells.has(token)) continue;
    const pos = cells.get(token);
    const x = pos.c * CELL + CELL - 20, y = pos.r * CELL + CELL - 18;
    svg.append(el('svg:rect', { class: 'hintbg' + (label.best ? ' best' : ''), x, y, width: 18, height: 16, rx: 3 }));
    svg.append(el('svg:text', { class: 'hintlabel', x: x + 9, y: y + 12, 'text-anchor': 'middle', 'data-hint-for': token }, label.text));
  }
  return svg;
}

function splitMove(mv) { const i = (mv || '').indexOf('x'); return i < 0 ? [null, null] : [mv.slice(0, i), mv.slice(i + 1)]; }

// ---------------------------------------------------------------- game replay

async function renderGame(params) {
  const key = Object.fromEntries(['sweep', 'experiment', 'config', 'params', 'index'].map(k => [k, params.get(k) || '']));
  const game = await api('/api/game', key);
  const row = game.row;
  const steps = game.steps;
  let at = Math.min(Number(params.get('step') || 0), Math.max(steps.length - 1, 0));
  const view = el('div', { class: 'split' });
  const left = el('div', {});
  const right = el('div', { class: 'panel' });
  main().append(el('h2', {}, `${row.experiment} · ${row.config} · ${row.params} · game ${row.game_index}`), view);
  view.append(left, right);
  if (game.replay_error) showMessage('This game does not replay: ' + game.replay_error);
  let timer = null;
  const martello = drawsBoard(row.puzzle);
  const moveList = el('ol', { class: 'moves', id: 'moves', start: 1 });
  steps.slice(1).forEach((s, i) => moveList.append(el('li', { class: s.phase, 'data-step': i + 1, onclick: () => show(i + 1) }, s.move + (s.phase === 'prefix' ? ' (prefix)' : ''))));
  const caption = el('div', { id: 'caption' });
  const boardBox = el('div', { id: 'board-box' });
  const controls = el('div', { class: 'controls' },
    el('button', { id: 'first', onclick: () => show(0), title: 'first' }, '« first'),
    el('button', { id: 'back', onclick: () => show(at - 1) }, '◀'),
    el('button', { id: 'step', onclick: () => show(at + 1) }, '▶'),
    el('button', { id: 'last', onclick: () => show(steps.length - 1), title: 'last' }, 'last »'),
    el('button', { id: 'animate', onclick: animate }, 'animate'),
    el('button', { class: 'action', id: 'play-here', onclick: () => {
      const s = steps[at];
      location.hash = '#/play?' + new URLSearchParams({ puzzle: row.puzzle, params: row.params, state: s.state });
    } }, 'Play from here'));
  left.append(caption, boardBox, controls, el('h3', {}, 'Moves'), moveList);
  const details = el('dl', { class: 'row', id: 'row' });
  for (const [k, v] of Object.entries(row)) details.append(el('dt', {}, k), el('dd', {}, v === null ? '' : String(v)));
  right.append(el('h3', {}, 'Row'), details);

  function show(k) {
    if (k < 0 || k >= steps.length) return;
    at = k;
    const s = steps[k];
    const next = steps[k + 1];
    const [eater, eaten] = splitMove(next && next.move);
    const [lastEater] = splitMove(s.move);
    boardBox.replaceChildren(martello
      ? drawBoard(s.state, { eater, eaten, last: lastEater })
      : el('pre', { class: 'drawing', id: 'board', 'data-state': s.state }, s.drawing || s.state));
    const what = k === 0 ? 'start' : `after move ${k}: ${s.move}`;
    caption.replaceChildren(el('span', { id: 'step-info', 'data-step': k }, `${what} · score ${s.score}`),
      next ? el('span', { class: 'muted' }, ` · next: ${next.move}`) : el('span', { class: 'muted' }, ' · end of the solution'));
    for (const li of moveList.children) li.classList.toggle('current', Number(li.dataset.step) === k);
    $('#back').disabled = k === 0;
    $('#first').disabled = k === 0;
    $('#step').disabled = k === steps.length - 1;
    $('#last').disabled = k === steps.length - 1;
    const q = new URLSearchParams(params); q.set('step', k);
    history.replaceState(null, '', '#/game?' + q);
  }
  function animate() {
    if (timer) { clearInterval(timer); timer = null; $('#animate').textContent = 'animate'; return; }
    if (at >= steps.length - 1) show(0);
    $('#animate').textContent = 'stop';
    timer = setInterval(() => { if (at >= steps.length - 1 || route().path !== '/game') { clearInterval(timer); timer = null; const b = $('#animate'); if (b) b.textContent = 'animate'; } else show(at + 1); }, 700);
  }
  if (steps.length) show(at);
}

// ---------------------------------------------------------------- play

const playState = { history: [], at: -1, puzzle: '', params: '', selected: null, hintsFor: null, hints: null, info: null };

async function renderPlay(params) {
  const puzzle = params.get('puzzle') || meta.default_family || '';
  const state = params.get('state');
  const paste = el('form', { class: 'filters', id: 'paste' },
    el('label', {}, 'puzzle', el('select', { name: 'puzzle' }, (meta.families || []).map(f => f.name).map(v => el('option', { value: v, selected: v === puzzle }, v)))),
    el('label', {}, 'params (key=value;…, empty when the board tells)', el('input', { name: 'params', value: params.get('params') || '', size: 24 })),
    el('label', {}, 'board', el('input', { name: 'state', id: 'paste-state', value: state || '', size: 60 })),
    el('button', { class: 'action', type: 'submit', id: 'paste-go' }, 'Start'));
  const seeded = el('form', { class: 'filters', id: 'seeded' },
    el('label', {}, 'seeded game: params', el('input', { name: 'params', value: params.get('params') || 'n=6', size: 14 })),
    el('label', {}, 'sweep seed', el('input', { name: 'seed', type: 'number', min: 0, value: params.get('seed') || '2013' })),
    el('label', {}, 'game index', el('input', { name: 'index', type: 'number', min: 0, value: params.get('index') || '0' })),
    el('button', { class: 'action', type: 'submit', id: 'seeded-go' }, 'Start this game'));
  seeded.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const f = new FormData(seeded);
    const p = new FormData(paste);
    try {
      const r = await api('/api/instance', { puzzle: p.get('puzzle'), params: f.get('params'), seed: f.get('seed'), index: f.get('index') });
      location.hash = '#/play?' + new URLSearchParams({ puzzle: r.puzzle, params: f.get('params'), state: r.state });
    } catch (e) { showMessage(e.message); }
  });
  paste.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const f = new FormData(paste);
    location.hash = '#/play?' + new URLSearchParams({ puzzle: f.get('puzzle'), params: f.get('params'), state: f.get('state').trim() });
  });
  main().append(paste, seeded);
  if (!state) {
    main().append(el('p', { class: 'muted' }, 'Paste a board, or open a game and press “Play from here”.'));
    return;
  }
  const same = playState.history[playState.at];
  if (!(same && same.state === state && playState.puzzle === puzzle)) {
    playState.history = [{ state, move: null }];
    playState.at = 0;
  }
  playState.puzzle = puzzle;
  playState.params = params.get('params') || '';
  const area = el('div', { class: 'split' });
  main().append(area);
  area.append(el('div', { id: 'play-left' }), el('div', { class: 'panel', id: 'play-right' }));
  await showPosition();
}

async function showPosition() {
  const current = playState.history[playState.at];
  const info = await api('/api/position', { puzzle: playState.puzzle, params: playState.params, state: current.state });
  playState.params = info.params;
  playState.info = info;
  playState.selected = null;
  playState.hints = null;
  drawPlay();
  const asked = current.state;
  try {
    const h = await api('/api/hints', { puzzle: playState.puzzle, params: playState.params, state: asked });
    if (playState.history[playState.at] && playState.history[playState.at].state === asked) {
      playState.hints = h;
      drawPlay();
    }
  } catch (e) { showMessage('hints: ' + e.message); }
}

// Whether the page draws the family's board itself (stones to click) rather than showing
// the server's text picture: the registry says, through /api/meta.
function drawsBoard(puzzle) {
  return (meta.families || []).some(f => f.name === puzzle && f.draws_board);
}

function hintText(h) { return h.exact ? String(h.score) : `≤${h.score}`; }

function drawPlay() {
  const info = playState.info;
  const left = $('#play-left');
  const right = $('#play-right');
  if (!left || !right) return;
  const martello = drawsBoard(info.puzzle);
  const hints = playState.hints ? playState.hints.hints : null;
  const best = hints && hints.length ? Math.min(...hints.map(h => h.score)) : null;
  const hintOf = new Map((hints || []).map(h => [h.move, h]));
  // The moves that start with the selected stone, aliases included.
  const targets = new Map();
  if (playState.selected) {
    for (const m of info.moves) for (const mv of [m.move, ...m.same_as]) {
      const [x, y] = splitMove(mv);
      if (x === playState.selected) targets.set(y, m);
    }
  }
  const labels = new Map();
  if (playState.selected) {
    for (const [y, m] of targets) { const h = hintOf.get(m.move); if (h) labels.set(y, { text: hintText(h), best: h.score === best }); }
  } else if (hints) {
    // Nothing selected: each stone that can move shows the best of its moves.
    for (const m of info.moves) {
      const h = hintOf.get(m.move);
      if (!h) continue;
      for (const mv of [m.move, ...m.same_as]) {
        const [x] = splitMove(mv);
        const old = labels.get(x);
        if (!old || old.score > h.score) labels.set(x, { text: hintText(h), best: h.score === best, score: h.score });
      }
    }
  }
  const status = el('p', { id: 'play-status', 'data-score': info.score, 'data-moves': info.moves.length },
    `score ${info.score} (goal ${info.goal}) · ${info.moves.length} legal move(s)` + (info.moves.length === 0 ? ' · game over' : ''));
  const board = martello
    ? drawBoard(info.state, { playable: true, selected: playState.selected, targets: new Set(targets.keys()), labels, onStone: clickStone })
    : el('pre', { class: 'drawing', id: 'board', 'data-state': info.state }, info.drawing);
  const controls = el('div', { class: 'controls' },
    el('button', { id: 'undo', onclick: undo, disabled: playState.at === 0 }, '↶ undo'),
    el('button', { id: 'redo', onclick: redo, disabled: playState.at >= playState.history.length - 1 }, '↷ redo'),
    el('span', { class: 'muted' }, martello ? 'Click a stone, then the stone it eats.' : 'Pick a move from the list.'));
  left.replaceChildren(status, board, controls,
    el('p', { class: 'muted', id: 'state-text' }, info.state));
  const list = el('ul', { class: 'hints', id: 'hints', 'data-ready': hints ? 'true' : 'false' });
  for (const m of info.moves) {
    const h = hintOf.get(m.move);
    const text = h ? (h.exact ? `→ ${h.score}` : `→ at most ${h.score} (at least ${h.lower_bound})`) : '…';
    list.append(el('li', {
      class: 'hint' + (h && h.score === best ? ' best' : ''), 'data-move': m.move, 'data-after': m.after,
      'data-score': h ? h.score : '', 'data-exact': h ? String(h.exact) : '', onclick: () => play(m.move),
    }, `${m.move}  ${text}`));
  }
  const took = playState.hints ? ` (${playState.hints.took_ms.toFixed(0)} ms, at most ${fmtInt(playState.hints.budget)} expansions a move)` : ' (computing…)';
  right.replaceChildren(el('h3', {}, 'Hints: the best score still reachable after each move'), el('p', { class: 'muted' }, took), list);
}

function clickStone(token) {
  const info = playState.info;
  if (!playState.selected || playState.selected === token) {
    playState.selected = playState.selected === token ? null : token;
    showMessage('');
    drawPlay();
    return;
  }
  play(`${playState.selected}x${token}`);
}

async function play(mv) {
  const current = playState.history[playState.at];
  try {
    const r = await api('/api/move', { puzzle: playState.puzzle, params: playState.params, state: current.state, move: mv });
    showMessage('');
    playState.history = playState.history.slice(0, playState.at + 1);
    playState.history.push({ state: r.after, move: mv });
    playState.at += 1;
    syncPlayUrl();
    await showPosition();
  } catch (e) {
    playState.selected = null;
    drawPlay();
    showMessage(`${mv} is refused: ${e.message}`);
  }
}

function syncPlayUrl() {
  const s = playState.history[playState.at].state;
  history.replaceState(null, '', '#/play?' + new URLSearchParams({ puzzle: playState.puzzle, params: playState.params, state: s }));
}

async function undo() { if (playState.at > 0) { playState.at -= 1; syncPlayUrl(); showMessage(''); await showPosition(); } }
async function redo() { if (playState.at < playState.history.length - 1) { playState.at += 1; syncPlayUrl(); showMessage(''); await showPosition(); } }

// ---------------------------------------------------------------- live

let lastLive = null;

// #/live lists the coordinator's sweeps and follows one: ?sweep=NAME, else the one the
// server picks (the first running, else the first queued, else the newest).
async function renderLive(params) {
  const box = el('div', { id: 'live' });
  main().append(box);
  const sweep = params.get('sweep') || '';
  const tick = async () => {
    if (route().path !== '/live') return;
    let v;
    try { v = await api('/api/live', sweep ? { sweep } : {}); } catch (e) { v = { ok: false, enabled: true, error: e.message }; }
    drawLive(box, v);
  };
  await tick();
  liveTimer = setInterval(tick, 1000);
}

function drawLive(box, v) {
  if (!v.enabled) { box.replaceChildren(el('div', { class: 'panel', id: 'live-error' }, v.error)); return; }
  if (!v.ok) {
    showMessage(v.error);
    const err = el('div', { class: 'panel', id: 'live-error' }, v.error, el('p', { class: 'muted' }, 'Still trying every second; the last status below is stale.'));
    box.replaceChildren(err);
    if (lastLive) { const old = liveView(lastLive); old.classList.add('stale'); box.append(old); }
    return;
  }
  showMessage('');
  lastLive = v;
  box.replaceChildren(liveView(v));
}

function liveView(v) {
  const view = el('div', {});
  view.append(liveQueue(v));
  if (v.follow_error) view.append(el('div', { class: 'panel', id: 'live-follow-error' }, `sweep ${v.following}: ${v.follow_error}`));
  else if (v.sweep !== undefined) view.append(liveBody(v));
  return view;
}

// The queue: one row per sweep, its name a link that follows it.
function liveQueue(v) {
  const panel = el('div', { class: 'panel', style: 'margin-bottom:16px' });
  const how = v.chosen ? '' : ' · following the running sweep; click a name to follow another';
  panel.append(el('h3', {}, 'Sweeps ', el('span', { class: 'muted' }, `at ${v.coordinator}${v.queue.length > 1 ? how : ''}`)));
  if (!v.queue.length) {
    panel.append(el('p', { id: 'live-empty' }, 'The queue is empty: submit a sweep with ', el('code', {}, `hammer submit SWEEP.toml --coordinator ${v.coordinator}`), '.'));
    return panel;
  }
  const head = ['sweep', 'state', 'games', '', 'rate', 'ETA', 'priority', 'weight', 'dataset'];
  const table = el('table', { id: 'live-queue' }, el('tr', {}, head.map(h => el('th', {}, h))));
  for (const s of v.queue) {
    const pct = s.games_total ? 100 * s.games_committed / s.games_total : 0;
    const link = el('a', { href: '#/live?' + new URLSearchParams({ sweep: s.name }) }, s.name);
    const rate = s.state === 'running' || s.state === 'stopping' ? fmtRateText(s.games_per_second || 0) : '—';
    table.append(el('tr', { class: 'sweep' + (s.name === v.following ? ' followed' : ''), 'data-name': s.name, 'data-state': s.state, 'data-committed': s.games_committed },
      el('td', {}, link), el('td', { class: 'state' }, s.state),
      el('td', { class: 'num' }, `${fmtInt(s.games_committed)}/${fmtInt(s.games_total)}`),
      el('td', {}, el('div', { class: 'bar' }, el('div', { style: `width:${pct}%` }))),
      el('td', { class: 'num' }, rate),
      el('td', { class: 'num' }, s.state === 'complete' ? 'done' : fmtSecs(s.eta_seconds)),
      el('td', { class: 'num' }, s.priority), el('td', { class: 'num' }, s.weight),
      el('td', { class: 'muted' }, s.dataset)));
    if (s.reason) table.append(el('tr', { class: 'reason' }, el('td', {}), el('td', { colspan: head.length - 1, class: 'muted' }, s.reason)));
  }
  panel.append(table);
  return panel;
}

function liveBody(v) {
  const pct = v.games_total ? 100 * v.games_committed / v.games_total : 0;
  const body = el('div', {});
  body.append(el('h2', { id: 'live-sweep', 'data-name': v.sweep }, `${v.sweep} `, el('span', { class: 'muted' }, `${v.state && v.state !== '-' ? v.state + ' · ' : ''}digest ${v.digest.slice(0, 12)}${v.dataset ? ' · ' + v.dataset : ''}`)));
  body.append(el('div', { class: 'stats' },
    el('div', {}, el('b', { id: 'live-committed', 'data-value': v.games_committed }, fmtInt(v.games_committed)), `of ${fmtInt(v.games_total)} games committed`),
    el('div', {}, el('b', {}, pct.toFixed(1) + ' %'), v.complete ? 'complete' : 'done'),
    el('div', {}, ...fmtRate(v.games_per_second)),
    el('div', {}, el('b', { id: 'live-eta' }, v.complete ? 'done' : fmtSecs(v.eta_seconds)), 'ETA'),
    el('div', {}, el('b', {}, `${v.units_committed}/${v.units_total}`), `units committed, ${v.units_leased} leased`),
    el('div', {}, el('b', { id: 'live-workers' }, v.workers_active), 'workers active')));
  body.append(el('div', { class: 'bar', style: 'max-width:600px' }, el('div', { style: `width:${pct}%` })));
  const split = el('div', { class: 'split', style: 'margin-top:16px' });
  split.append(el('div', { class: 'panel' }, el('h3', {}, 'Figure 8: solvable ratio by size, 95% intervals'), figure8(v.series)));
  const series = el('table', { id: 'live-series' }, el('tr', {}, ['experiment', 'params', 'config', 'committed', '', 'solvable ratio [95%]'].map(h => el('th', {}, h))),
    v.series.map(s => el('tr', {}, el('td', {}, s.experiment), el('td', {}, s.params), el('td', {}, s.config),
      el('td', { class: 'num' }, `${fmtInt(s.committed)}/${fmtInt(s.total)}`),
      el('td', {}, el('div', { class: 'bar' }, el('div', { style: `width:${s.total ? 100 * s.committed / s.total : 0}%` }))),
      el('td', { class: 'num' }, s.ratio === null ? '—' : `${s.ratio.toFixed(4)} [${s.low.toFixed(4)}, ${s.high.toFixed(4)}]`))));
  split.append(el('div', { class: 'panel' }, el('h3', {}, 'Series'), series));
  body.append(split);
  const workers = el('table', { id: 'live-worker-list' }, el('tr', {}, ['worker', 'version', 'last heard', 'units (games arrived / in unit, expansions so far)'].map(h => el('th', {}, h))),
    v.workers.map(w => el('tr', { class: 'worker' }, el('td', {}, w.id), el('td', {}, w.version), el('td', { class: 'num' }, (w.idle_ms / 1000).toFixed(1) + ' s ago'),
      el('td', {}, w.units.length ? w.units.map(liveUnit) : 'idle'))));
  body.append(el('div', { class: 'panel', style: 'margin-top:16px' }, el('h3', {}, 'Workers'), workers));
  return body;
}

// A leased unit: its games, and the expansions its worker reported for it, games still
// running included, with how long ago they last grew (a long game's only sign of life).
function liveUnit(u) {
  const progress = u.expansions
    ? `${fmtCount(u.expansions)} expansions, grew ${(u.progress_ms / 1000).toFixed(1)} s ago`
    : `no expansions reported for ${(u.progress_ms / 1000).toFixed(1)} s`;
  // A game searched by a gang of workers is leased to each member.
  const gang = u.gang_size ? `, gang member ${u.gang_rank} of ${u.gang_size}` : '';
  return el('div', { class: 'unit', 'data-expansions': u.expansions, 'data-progress-ms': u.progress_ms, 'data-gang-size': u.gang_size },
    el('span', { class: 'unit-id' }, u.unit), ` (${u.received}/${u.games} games, ${progress}${gang}, lease renewed ${(u.renewed_ms / 1000).toFixed(1)} s ago)`);
}

// 1234 -> "1,234"; 12345678 -> "12.3M": expansions of a long unit run to billions.
function fmtCount(x) {
  if (x >= 1e9) return (x / 1e9).toFixed(2) + 'G';
  if (x >= 1e6) return (x / 1e6).toFixed(1) + 'M';
  return fmtInt(x);
}

function figure8(series) {
  const W = 420, H = 260, L = 50, B = 30, T = 10, R = 10;
  const svg = el('svg:svg', { class: 'chart', id: 'figure8', width: W, height: H });
  const pts = series.filter(s => s.ratio !== null);
  if (!pts.length) { svg.append(el('svg:text', { x: 20, y: 40 }, 'no committed games yet')); return svg; }
  const ns = pts.map(s => s.n);
  const nMin = Math.min(...ns), nMax = Math.max(...ns);
  const yMin = Math.max(0, Math.min(...pts.map(s => s.low)) - 0.01);
  const x = (n) => L + (nMax === nMin ? (W - L - R) / 2 : (n - nMin) / (nMax - nMin) * (W - L - R));
  const y = (p) => T + (1 - (p - yMin) / (1 - yMin || 1)) * (H - T - B);
  svg.append(el('svg:line', { class: 'axis', x1: L, y1: H - B, x2: W - R, y2: H - B }), el('svg:line', { class: 'axis', x1: L, y1: T, x2: L, y2: H - B }));
  for (const n of [...new Set(ns)]) svg.append(el('svg:text', { x: x(n) - 3, y: H - B + 16 }, n));
  for (const p of [yMin, (yMin + 1) / 2, 1]) svg.append(el('svg:text', { x: 4, y: y(p) + 4 }, p.toFixed(3)));
  const lines = new Map();
  pts.forEach(s => { const k = s.experiment + ' · ' + s.config; if (!lines.has(k)) lines.set(k, []); lines.get(k).push(s); });
  let i = 0;
  for (const [name, ss] of lines) {
    const colour = COLOURS[i++ % COLOURS.length];
    ss.sort((a, b) => a.n - b.n);
    svg.append(el('svg:polyline', { points: ss.map(s => `${x(s.n)},${y(s.ratio)}`).join(' '), fill: 'none', stroke: colour, 'stroke-width': 1.5 }));
    for (const s of ss) {
      svg.append(el('svg:line', { class: 'interval', 'data-n': s.n, 'data-width': (s.high - s.low).toFixed(6), x1: x(s.n), x2: x(s.n), y1: y(s.low), y2: y(s.high), stroke: colour, 'stroke-width': 2 }));
      svg.append(el('svg:circle', { cx: x(s.n), cy: y(s.ratio), r: 3, fill: colour }, el('svg:title', {}, `${name} n=${s.n}: ${s.ratio.toFixed(4)} [${s.low.toFixed(4)}, ${s.high.toFixed(4)}] of ${s.committed}`)));
    }
    svg.append(el('svg:text', { x: L + 8, y: T + 12 * i }, name));
  }
  return svg;
}

window.addEventListener('hashchange', render);
render();
