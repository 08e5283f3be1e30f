'use strict';
(function () {
  const nodes = JSON.parse(document.getElementById('tree-data').textContent);
  const lang = document.documentElement.lang;
  const bySfen = new Map();
  for (const n of nodes) { if (!bySfen.has(n.sfen)) { bySfen.set(n.sfen, n); } }
  const KANJI = { P: '歩', L: '香', N: '桂', S: '銀', G: '金', B: '角', R: '飛', K: '玉',
    '+P': 'と', '+L': '杏', '+N': '圭', '+S': '全', '+B': '馬', '+R': '龍' };
  const HAND = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];
  // The path from a root: [sfen, move text] pairs.
  let path = [];

  function board(sfen) {
    const [rows, side, hands] = sfen.split(' ');
    const grid = rows.split('/').map((r) => {
      const cells = []; let promo = false;
      for (const ch of r) {
        if (ch === '+') { promo = true; continue; }
        if (ch >= '0' && ch <= '9') { for (let i = 0; i < +ch; i++) { cells.push(null); } continue; }
        const up = ch.toUpperCase();
        cells.push({ k: (promo ? '+' : '') + up, gote: ch !== up });
        promo = false;
      }
      return cells;
    });
    const hand = [{}, {}];
    let n = 0;
    for (const ch of (hands || '-')) {
      if (ch === '-') { break; }
      if (ch >= '0' && ch <= '9') { n = n * 10 + (+ch); continue; }
      const up = ch.toUpperCase();
      const h = hand[ch === up ? 0 : 1];
      h[up] = (h[up] || 0) + (n || 1); n = 0;
    }
    const handText = (h, mark) => mark + ' ' + HAND.filter((k) => h[k]).map((k) => KANJI[k] + (h[k] > 1 ? h[k] : '')).join(' ');
    let html = '<div class="hand" id="hand-gote">' + handText(hand[1], '☖') + '</div><table>';
    for (const r of grid) {
      html += '<tr>' + r.map((c) => c ? '<td class="' + (c.gote ? 'gote' : 'sente') + '">' + KANJI[c.k] + '</td>' : '<td></td>').join('') + '</tr>';
    }
    html += '</table><div class="hand" id="hand-sente">' + handText(hand[0], '☗') + '</div>';
    html += '<div>' + (side === 'b' ? '☗' : '☖') + (lang === 'ja' ? ' 手番' : ' to move') + '</div>';
    const b = document.getElementById('board');
    b.innerHTML = html;
    b.setAttribute('data-sfen', sfen);
  }

  function pct(n, of) { return of ? (100 * n / of) : 0; }

  function show() {
    const here = path.length ? path[path.length - 1][0] : nodes.length ? nodes[0].sfen : '';
    const node = bySfen.get(here);
    board(here);
    const nav = document.getElementById('path');
    nav.innerHTML = '';
    const link = (text, depth) => {
      const a = document.createElement('a');
      a.textContent = text; a.setAttribute('data-depth', depth);
      if (depth === path.length - 1) { a.className = 'here'; }
      a.addEventListener('click', () => { path = path.slice(0, depth + 1); show(); });
      nav.appendChild(a);
    };
    path.forEach((p, i) => link(i === 0 ? (lang === 'ja' ? '初期局面' : 'start') : p[1], i));
    const info = document.getElementById('info');
    const name = node && node.name ? (lang === 'ja' ? node.name.ja : node.name.en) : '';
    info.textContent = node ? (node.games + (lang === 'ja' ? '局' : ' games') + (name ? ' · ' + name : '')) : '';
    info.setAttribute('data-name', node && node.name ? node.name.id : '');
    const body = document.querySelector('#moves tbody');
    body.innerHTML = '';
    for (const m of node ? node.moves : []) {
      const tr = document.createElement('tr');
      tr.setAttribute('data-usi', m.usi);
      tr.setAttribute('data-games', m.games);
      const text = lang === 'ja' ? m.ja : m.psn;
      const s = pct(m.sente_wins, m.games), d = pct(m.draws, m.games), g = pct(m.gote_wins, m.games);
      const rating = m.rating_avg === null ? '' : Math.round(m.rating_avg) + ' / ' + Math.round(m.rating_best);
      const dates = m.first_date ? m.first_date + ' – ' + m.last_date : '';
      tr.innerHTML = '<td class="mv"></td><td>' + m.games + '</td><td><div class="bar" title="' +
        s.toFixed(1) + '% / ' + d.toFixed(1) + '% / ' + g.toFixed(1) + '%"><span class="s" style="width:' + s +
        '%"></span><span class="d" style="width:' + d + '%"></span><span class="g" style="width:' + g +
        '%"></span></div></td><td>' + rating + '</td><td>' + dates + '</td><td class="ex"></td>';
      tr.querySelector('.mv').textContent = text;
      tr.querySelector('.ex').textContent = m.example.path + ':' + (m.example.game + 1);
      tr.addEventListener('click', () => {
        if (bySfen.has(m.sfen_after)) { path.push([m.sfen_after, text]); show(); }
      });
      body.appendChild(tr);
    }
  }

  if (nodes.length) { path = [[nodes[0].sfen, '']]; }
  show();
  document.documentElement.setAttribute('data-ready', 'true');
})();
