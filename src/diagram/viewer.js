// kifu HTML viewer: draws the positions kifu computed (SFEN per node) and
// steps through the game tree. No network, no dependencies.
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('kifu-data').textContent);
  var N = D.nodes, G = D.geo, L = D.labels;
  var board = document.getElementById('board');
  var movesEl = document.getElementById('moves');
  var currentEl = document.getElementById('current');
  var altsEl = document.getElementById('alts');
  var commentEl = document.getElementById('comment');
  var cur = 0, flip = !!D.flip, lineIds = [];

  function idiv(a, b) { return Math.floor(a / b); }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  function parseSfen(sfen) {
    var f = sfen.split(' ');
    var rows = f[0].split('/');
    var cells = {};
    for (var r = 0; r < rows.length; r++) {
      var file = G.files, prom = false, row = rows[r];
      for (var i = 0; i < row.length; i++) {
        var ch = row.charAt(i);
        if (ch === '+') { prom = true; continue; }
        if (ch >= '0' && ch <= '9') {
          var num = ch;
          while (i + 1 < row.length && row.charAt(i + 1) >= '0' && row.charAt(i + 1) <= '9') { num += row.charAt(++i); }
          file -= parseInt(num, 10);
          continue;
        }
        cells[file + '' + (r + 1)] = { t: (prom ? '+' : '') + ch.toUpperCase(), w: ch !== ch.toUpperCase() };
        prom = false;
        file--;
      }
    }
    var hands = [{}, {}], n = '';
    var h = f[2] || '-';
    if (h !== '-') {
      for (var j = 0; j < h.length; j++) {
        var c = h.charAt(j);
        if (c >= '0' && c <= '9') { n += c; continue; }
        var side = c === c.toUpperCase() ? 0 : 1;
        var t = c.toUpperCase();
        hands[side][t] = (hands[side][t] || 0) + (n ? parseInt(n, 10) : 1);
        n = '';
      }
    }
    return { cells: cells, turn: f[1] === 'w' ? 1 : 0, hands: hands };
  }

  // The same picture as `kifu board --to svg` (src/diagram/svg.rs).
  function drawSvg(sfen, last, flipped) {
    var p = parseSfen(sfen);
    var bw = G.files * G.cw, bh = G.ranks * G.ch, o = [];
    var viewer = flipped ? 1 : 0;
    function cell(sq) {
      var f = +sq.charAt(0), r = +sq.charAt(1);
      return flipped ? [f - 1, G.ranks - r] : [G.files - f, r - 1];
    }
    o.push('<svg xmlns="http://www.w3.org/2000/svg" width="' + G.width + '" height="' + G.height +
      '" viewBox="0 0 ' + G.width + ' ' + G.height + '" class="kifu-board" data-sfen="' + esc(sfen) +
      '" data-variant="' + esc(D.variant) + '" data-flip="' + flipped + '" font-family="' + esc(D.font) + '">');
    o.push('<title>' + esc(sfen) + '</title>');
    o.push('<rect class="background" x="0" y="0" width="' + G.width + '" height="' + G.height + '" fill="#ffffff"/>');
    o.push('<rect class="board" x="' + G.bx + '" y="' + G.by + '" width="' + bw + '" height="' + bh + '" fill="#f3d9a0"/>');
    (last || []).forEach(function (sq) {
      var c = cell(sq);
      o.push('<rect class="hl" data-square="' + sq + '" x="' + (G.bx + c[0] * G.cw) + '" y="' + (G.by + c[1] * G.ch) +
        '" width="' + G.cw + '" height="' + G.ch + '" fill="#f7b733" fill-opacity="0.55"/>');
    });
    var d = '';
    for (var i = 1; i < G.files; i++) { d += 'M' + (G.bx + i * G.cw) + ' ' + G.by + 'V' + (G.by + bh); }
    for (i = 1; i < G.ranks; i++) { d += 'M' + G.bx + ' ' + (G.by + i * G.ch) + 'H' + (G.bx + bw); }
    o.push('<path class="grid" stroke="#3a2a1a" stroke-width="1" fill="none" d="' + d + '"/>');
    o.push('<rect class="frame" x="' + G.bx + '" y="' + G.by + '" width="' + bw + '" height="' + bh +
      '" fill="none" stroke="#3a2a1a" stroke-width="2.5"/>');
    if (G.files === 9 && G.ranks === 9) {
      [[3, 3], [6, 3], [3, 6], [6, 6]].forEach(function (s) {
        o.push('<circle class="star" cx="' + (G.bx + s[0] * G.cw) + '" cy="' + (G.by + s[1] * G.ch) + '" r="3" fill="#3a2a1a"/>');
      });
    }
    for (i = 0; i < G.files; i++) {
      var fl = flipped ? i + 1 : G.files - i;
      o.push('<text class="coord" x="' + (G.bx + i * G.cw + idiv(G.cw, 2)) + '" y="' + (G.by - 7) + '" font-size="' +
        G.coord_fs + '" text-anchor="middle" fill="#444">' + esc(D.files[fl - 1]) + '</text>');
    }
    for (i = 0; i < G.ranks; i++) {
      var rk = flipped ? G.ranks - i : i + 1;
      o.push('<text class="coord" x="' + (G.bx + bw + idiv(G.coord, 2)) + '" y="' +
        (G.by + i * G.ch + idiv(G.ch, 2) + idiv(G.coord_fs * 35, 100)) + '" font-size="' + G.coord_fs +
        '" text-anchor="middle" fill="#444">' + esc(D.ranks[rk - 1]) + '</text>');
    }
    Object.keys(p.cells).sort().forEach(function (sq) {
      var pc = p.cells[sq], g = D.glyphs[pc.t];
      if (!g) { return; }
      var c = cell(sq);
      var cx = G.bx + c[0] * G.cw + idiv(G.cw, 2), cy = G.by + c[1] * G.ch + idiv(G.ch, 2);
      var s = '<text class="piece" data-color="' + (pc.w ? 'w' : 'b') + '" data-role="' + esc(pc.t) + '" data-square="' + sq +
        '" x="' + cx + '" y="' + (cy + idiv(G.piece_fs * 36, 100)) + '" font-size="' + G.piece_fs +
        '" text-anchor="middle" fill="' + (g[2] ? '#b3001b' : '#111111') + '"';
      if ((pc.w ? 1 : 0) !== viewer) { s += ' transform="rotate(180 ' + cx + ' ' + cy + ')"'; }
      o.push(s + '>' + esc(g[pc.w ? 1 : 0]) + '</text>');
    });
    [0, 1].forEach(function (color) {
      var top = color !== viewer;
      var items = D.hand_order.filter(function (t) { return p.hands[color][t] > 0; });
      var cx = top ? G.pad + idiv(G.hand_w, 2) : G.bx + bw + G.coord + G.gap + idiv(G.hand_w, 2);
      var stack = G.mark_h + items.length * G.item_h;
      var y0 = top ? G.by : Math.max(0, G.by + bh - stack);
      var letter = color ? 'w' : 'b', turn = p.turn === color;
      o.push('<g class="hand" data-color="' + letter + '">');
      o.push('<text class="mark' + (turn ? ' turn' : '') + '" x="' + cx + '" y="' + (y0 + idiv(G.mark_h, 2) + idiv(G.hand_fs * 30, 100)) +
        '" font-size="' + (G.hand_fs - 4) + '" text-anchor="middle" fill="' + (turn ? '#b3001b' : '#111111') + '">' +
        (color ? '\u2616' : '\u2617') + '</text>');
      items.forEach(function (t, k) {
        var n = p.hands[color][t], cy = y0 + G.mark_h + k * G.item_h + idiv(G.item_h, 2);
        var y = cy + idiv(G.hand_fs * 36, 100);
        o.push('<text class="hand-piece" data-color="' + letter + '" data-role="' + esc(t) + '" data-count="' + n + '" x="' + (cx - 6) +
          '" y="' + y + '" font-size="' + G.hand_fs + '" text-anchor="middle" fill="#111111">' + esc(D.glyphs[t] ? D.glyphs[t][0] : t) + '</text>');
        if (n > 1) {
          o.push('<text class="count" x="' + (cx + 8) + '" y="' + y + '" font-size="' + G.count_fs + '" fill="#111111">' + n + '</text>');
        }
      });
      o.push('</g>');
    });
    o.push('</svg>');
    return o.join('\n');
  }

  // The evaluation graph (main line): sente's score over the plies, a
  // click moves the board to the nearest ply.
  var graphEl = document.getElementById('evalgraph');
  var EV = D.ev || [], GW = 440, GH = 120, GCAP = 2000, maxPly = 1;
  function gx(ply) { return 4 + (GW - 8) * ply / maxPly; }
  function gy(v, mate) {
    var c = mate ? (v >= 0 ? GCAP : -GCAP) : Math.max(-GCAP, Math.min(GCAP, v));
    return GH / 2 - (GH / 2 - 4) * c / GCAP;
  }
  function drawGraph() {
    if (!graphEl || !EV.length) { return; }
    for (var x = 0; N[x].c.length; ) { x = N[x].c[0]; }
    maxPly = Math.max(1, N[x].d);
    var pts = EV.map(function (e) { return gx(e[0]).toFixed(1) + ',' + gy(e[1], e[2]).toFixed(1); });
    var o = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + GW + ' ' + GH + '" width="' + GW + '" height="' + GH + '">'];
    o.push('<rect class="bg" x="0" y="0" width="' + GW + '" height="' + GH + '" fill="#fff"/>');
    o.push('<path d="M0 ' + GH / 2 + 'H' + GW + '" stroke="#bbb" stroke-width="1"/>');
    o.push('<polygon points="' + gx(EV[0][0]).toFixed(1) + ',' + GH / 2 + ' ' + pts.join(' ') + ' ' +
      gx(EV[EV.length - 1][0]).toFixed(1) + ',' + GH / 2 + '" fill="#b3001b" fill-opacity="0.12"/>');
    o.push('<polyline points="' + pts.join(' ') + '" fill="none" stroke="#b3001b" stroke-width="1.5"/>');
    o.push('<line id="evalcursor" x1="0" x2="0" y1="0" y2="' + GH + '" stroke="#1b1b1b" stroke-width="1"/>');
    EV.forEach(function (e) {
      var t = e[2] ? 'mate ' + e[1] : String(e[1]);
      o.push('<circle class="pt" data-ply="' + e[0] + '" cx="' + gx(e[0]).toFixed(1) + '" cy="' + gy(e[1], e[2]).toFixed(1) +
        '" r="3" fill="#b3001b"><title>' + e[0] + ': ' + esc(t) + '</title></circle>');
    });
    o.push('</svg>');
    graphEl.innerHTML = o.join('');
    var svg = graphEl.firstChild;
    svg.addEventListener('click', function (ev) {
      var pt = ev.target.getAttribute && ev.target.getAttribute('data-ply'), ply;
      if (pt) { ply = +pt; } else {
        var r = svg.getBoundingClientRect();
        var px = (ev.clientX - r.left) * GW / r.width;
        ply = Math.max(0, Math.min(maxPly, Math.round((px - 4) * maxPly / (GW - 8))));
      }
      go(mainAt(ply));
    });
  }
  function markGraph(id) {
    var c = graphEl && document.getElementById('evalcursor');
    if (!c) { return; }
    var on = onMain(id), x = on ? gx(N[id].d).toFixed(1) : -10;
    c.setAttribute('x1', x);
    c.setAttribute('x2', x);
  }

  function onMain(id) {
    for (var x = id; N[x].p >= 0; x = N[x].p) {
      if (N[N[x].p].c[0] !== x) { return false; }
    }
    return true;
  }

  function lineOf(id) {
    var path = [];
    for (var x = id; x >= 0; x = N[x].p) { path.unshift(x); }
    for (x = id; N[x].c.length; ) { x = N[x].c[0]; path.push(x); }
    return path;
  }

  function mainAt(depth) {
    var x = 0;
    while (N[x].d < depth && N[x].c.length) { x = N[x].c[0]; }
    return x;
  }

  function li(id) {
    var el = document.createElement('li');
    var no = document.createElement('span');
    var mv = document.createElement('span');
    no.className = 'no';
    mv.className = 'mv';
    if (id === 0) {
      mv.textContent = L.start;
    } else {
      no.textContent = N[id].n;
      mv.textContent = N[id].m;
      if (N[N[id].p].c.length > 1) { el.className = 'has-alts'; }
    }
    el.setAttribute('data-node', id);
    el.appendChild(no);
    el.appendChild(mv);
    return el;
  }

  function renderList() {
    movesEl.textContent = '';
    lineIds.forEach(function (id) { movesEl.appendChild(li(id)); });
    var end = lineIds[lineIds.length - 1];
    if (N[end].e) {
      var el = document.createElement('li');
      el.className = 'end';
      var no = document.createElement('span');
      no.className = 'no';
      no.textContent = N[end].n + 1;
      var mv = document.createElement('span');
      mv.className = 'mv';
      mv.textContent = N[end].e;
      el.appendChild(no);
      el.appendChild(mv);
      movesEl.appendChild(el);
    }
  }

  function renderAlts() {
    altsEl.textContent = '';
    var p = N[cur].p;
    var sibs = p >= 0 ? N[p].c : [];
    var main = onMain(cur);
    if (sibs.length < 2 && main) { altsEl.hidden = true; return; }
    altsEl.hidden = false;
    if (sibs.length > 1) {
      var label = document.createElement('span');
      label.textContent = L.alternatives + ': ';
      altsEl.appendChild(label);
      sibs.forEach(function (s, k) {
        var b = document.createElement('button');
        b.type = 'button';
        b.setAttribute('data-node', s);
        b.setAttribute('data-alt', k);
        b.textContent = N[s].m;
        if (s === cur) { b.className = 'current'; }
        altsEl.appendChild(b);
      });
    }
    if (!main) {
      var back = document.createElement('button');
      back.type = 'button';
      back.id = 'back';
      back.textContent = '\u21a9 ' + L.back;
      altsEl.appendChild(back);
    }
  }

  function go(id, keepHash) {
    if (id < 0 || id >= N.length) { return; }
    cur = id;
    var node = N[id];
    if (lineIds.indexOf(id) < 0) { lineIds = lineOf(id); renderList(); }
    board.setAttribute('data-sfen', node.s);
    board.setAttribute('data-node', id);
    board.setAttribute('data-ply', node.d);
    board.innerHTML = drawSvg(node.s, node.l, flip);
    Array.prototype.forEach.call(movesEl.children, function (el) {
      var on = +el.getAttribute('data-node') === id && el.hasAttribute('data-node');
      el.classList.toggle('current', on);
      if (on) {
        el.setAttribute('aria-current', 'step');
        if (el.offsetTop < movesEl.scrollTop) { movesEl.scrollTop = el.offsetTop; }
        else if (el.offsetTop + el.offsetHeight > movesEl.scrollTop + movesEl.clientHeight) {
          movesEl.scrollTop = el.offsetTop + el.offsetHeight - movesEl.clientHeight;
        }
      } else {
        el.removeAttribute('aria-current');
      }
    });
    currentEl.textContent = '';
    var head = document.createElement('span');
    head.textContent = id === 0 ? L.start : node.n + ' ' + node.m;
    currentEl.appendChild(head);
    if (node.t) {
      var t = document.createElement('span');
      t.className = 'time';
      t.textContent = L.time + ' ' + node.t;
      currentEl.appendChild(t);
    }
    commentEl.textContent = node.x || '';
    renderAlts();
    markGraph(id);
    if (!keepHash) {
      var h = onMain(id) ? '#ply=' + node.d : '#node=' + id;
      try { history.replaceState(null, '', h); } catch (e) { /* some file:// setups refuse */ }
    }
  }

  function back() {
    for (var x = cur; N[x].p >= 0; x = N[x].p) {
      var p = N[x].p;
      if (N[p].c[0] !== x) { go(N[p].c[0]); return; }
    }
  }

  function sibling(step) {
    var p = N[cur].p;
    if (p < 0) { return; }
    var s = N[p].c, k = s.indexOf(cur) + step;
    if (k >= 0 && k < s.length) { go(s[k]); }
  }

  function fromHash() {
    var h = location.hash, m;
    if ((m = /ply=(\d+)/.exec(h))) { go(mainAt(parseInt(m[1], 10)), true); return true; }
    if ((m = /node=(\d+)/.exec(h)) && +m[1] < N.length) { go(+m[1], true); return true; }
    return false;
  }

  function next() { if (N[cur].c.length) { go(N[cur].c[0]); } }
  function prev() { if (N[cur].p >= 0) { go(N[cur].p); } }
  function last() { var x = cur; while (N[x].c.length) { x = N[x].c[0]; } go(x); }
  function toggleFlip() { flip = !flip; go(cur, true); }

  document.getElementById('first').addEventListener('click', function () { go(0); });
  document.getElementById('prev').addEventListener('click', prev);
  document.getElementById('next').addEventListener('click', next);
  document.getElementById('last').addEventListener('click', last);
  document.getElementById('flip').addEventListener('click', toggleFlip);
  movesEl.addEventListener('click', function (e) {
    var el = e.target.closest('li[data-node]');
    if (el) { go(+el.getAttribute('data-node')); }
  });
  altsEl.addEventListener('click', function (e) {
    var b = e.target.closest('button');
    if (!b) { return; }
    if (b.id === 'back') { back(); } else { go(+b.getAttribute('data-node')); }
  });
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var tag = e.target && e.target.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') { return; }
    switch (e.key) {
      case 'ArrowRight': next(); break;
      case 'ArrowLeft': prev(); break;
      case 'Home': go(0); break;
      case 'End': last(); break;
      case 'ArrowDown': sibling(1); break;
      case 'ArrowUp': sibling(-1); break;
      case 'Escape': back(); break;
      case 'f': case 'F': toggleFlip(); break;
      default: return;
    }
    e.preventDefault();
  });
  window.addEventListener('hashchange', fromHash);
  drawGraph();
  if (!fromHash()) { go(0, true); }
  document.documentElement.setAttribute('data-ready', 'true');
})();
