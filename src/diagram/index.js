// kifu index: every game of a collection in one table (sorted by a click
// on a header, filtered by the text box and the result), one page of rows
// at a time. No network, no dependencies.
(function () {
  'use strict';
  var C = JSON.parse(document.getElementById('kifu-config').textContent);
  var R = JSON.parse(document.getElementById('kifu-rows').textContent);
  var L = C.labels, PAGE = C.page;
  // Row fields: href, sente, gote, sente_rating, gote_rating, sente_rank,
  // gote_rank, date, event, result, reason, plies, sente_opening,
  // sente_castle, gote_opening, gote_castle.
  var RESULTS = { sente_win: 0, gote_win: 1, draw: 2, aborted: 3, unknown: 4 };
  // Columns: [sort key of row i, cell text, numeric].
  function rating(r, k) { return r[3 + k] !== null ? r[3 + k] : r[5 + k]; }
  function ratingText(r, k) {
    var s = r[5 + k] || '', n = r[3 + k];
    if (n !== null) { s = s ? s + ' ' + Math.round(n) : String(Math.round(n)); }
    return s;
  }
  var COLS = [
    [function (r, i) { return i; }, function (r, i) { return i + 1; }, true],
    [function (r) { return r[1]; }, function (r) { return r[1]; }],
    [function (r) { return rating(r, 0); }, function (r) { return ratingText(r, 0); }, true],
    [function (r) { return r[2]; }, function (r) { return r[2]; }],
    [function (r) { return rating(r, 1); }, function (r) { return ratingText(r, 1); }, true],
    [function (r) { return r[7]; }, function (r) { return r[7]; }],
    [function (r) { return r[8]; }, function (r) { return r[8]; }],
    [function (r) { return r[9]; }, function (r) { var k = RESULTS[r[9]]; return k === undefined ? r[9] : L.results[k]; }],
    [function (r) { return r[10]; }, function (r) { return r[10]; }],
    [function (r) { return r[11]; }, function (r) { return r[11]; }, true],
    [function (r) { return r[12]; }, function (r) { return r[12]; }],
    [function (r) { return r[13]; }, function (r) { return r[13]; }],
    [function (r) { return r[14]; }, function (r) { return r[14]; }],
    [function (r) { return r[15]; }, function (r) { return r[15]; }]
  ];
  var head = document.querySelector('#games thead tr');
  var body = document.querySelector('#games tbody');
  var filterEl = document.getElementById('filter');
  var resultEl = document.getElementById('result-filter');
  var countEl = document.getElementById('count');
  var pageEl = document.getElementById('page');
  var order = null;      // row indices in the sorted order (all rows)
  var shown = null;      // the indices that pass the filter, in order
  var hay = null;        // lower-case text of each row (built on the first filter)
  var sortCol = 0, sortDir = 1, page = 0;

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  L.columns.forEach(function (name, k) {
    var th = document.createElement('th');
    th.textContent = name;
    th.setAttribute('data-col', k);
    th.setAttribute('scope', 'col');
    head.appendChild(th);
  });

  function identity() {
    var a = new Array(R.length);
    for (var i = 0; i < R.length; i++) { a[i] = i; }
    return a;
  }

  function sortBy(col, dir) {
    var key = COLS[col][0], n = R.length, keys = new Array(n), i;
    for (i = 0; i < n; i++) { keys[i] = key(R[i], i); }
    var a = identity();
    var numeric = COLS[col][2];
    a.sort(function (x, y) {
      var p = keys[x], q = keys[y];
      // Empty cells last, whatever the direction.
      var pe = p === null || p === '', qe = q === null || q === '';
      if (pe || qe) { return pe === qe ? x - y : (pe ? 1 : -1); }
      if (numeric && typeof p !== typeof q) { return (typeof p === 'number' ? -1 : 1) * dir; }
      return (p < q ? -1 : p > q ? 1 : x - y) * dir;
    });
    order = a;
    sortCol = col;
    sortDir = dir;
    Array.prototype.forEach.call(head.children, function (th, k) {
      if (k === col) { th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending'); } else { th.removeAttribute('aria-sort'); }
    });
  }

  // The lower-case text of rows [0, to), built after the page shows (in
  // slices, between events) or at the first filter.
  var hayDone = 0;
  function buildHay(to) {
    if (!hay) { hay = new Array(R.length); }
    for (var i = hayDone; i < to; i++) {
      var r = R[i];
      hay[i] = (r[1] + '\u0001' + r[2] + '\u0001' + r[5] + '\u0001' + r[6] + '\u0001' + r[7] + '\u0001' + r[8] + '\u0001' +
        r[10] + '\u0001' + r[12] + '\u0001' + r[13] + '\u0001' + r[14] + '\u0001' + r[15]).toLowerCase();
    }
    if (to > hayDone) { hayDone = to; }
  }
  function hayLater() {
    if (hayDone >= R.length) { return; }
    buildHay(Math.min(R.length, hayDone + 10000));
    setTimeout(hayLater, 0);
  }

  function applyFilter() {
    var words = filterEl.value.toLowerCase().split(/\s+/).filter(Boolean);
    var res = resultEl.value;
    if (!words.length && !res) { shown = order; return; }
    if (words.length) { buildHay(R.length); }
    shown = order.filter(function (i) {
      var r = R[i];
      if (res && (res === 'other' ? (r[9] === 'sente_win' || r[9] === 'gote_win' || r[9] === 'draw') : r[9] !== res)) { return false; }
      for (var k = 0; k < words.length; k++) { if (hay[i].indexOf(words[k]) < 0) { return false; } }
      return true;
    });
  }

  function render() {
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    if (page >= pages) { page = pages - 1; }
    if (page < 0) { page = 0; }
    var from = page * PAGE, to = Math.min(shown.length, from + PAGE), o = [];
    for (var j = from; j < to; j++) {
      var i = shown[j], r = R[i];
      o.push('<tr data-i="' + i + '">');
      for (var k = 0; k < COLS.length; k++) {
        var t = COLS[k][1](r, i);
        t = t === null || t === undefined ? '' : t;
        var cls = COLS[k][2] ? ' class="num"' : '';
        if (k === 0) {
          o.push('<td' + cls + '><a href="' + esc(r[0]) + '">' + esc(t) + '</a></td>');
        } else {
          o.push('<td' + cls + ' title="' + esc(t) + '">' + esc(t) + '</td>');
        }
      }
      o.push('</tr>');
    }
    body.innerHTML = o.join('');
    countEl.textContent = L.count.replace('{n}', shown.length).replace('{from}', shown.length ? from + 1 : 0).replace('{to}', to);
    pageEl.textContent = (page + 1) + ' / ' + pages;
    document.getElementById('prev-page').disabled = page === 0;
    document.getElementById('next-page').disabled = page >= pages - 1;
    document.documentElement.setAttribute('data-shown', shown.length);
  }

  function update() { applyFilter(); render(); }

  head.addEventListener('click', function (e) {
    var th = e.target.closest('th');
    if (!th) { return; }
    var col = +th.getAttribute('data-col');
    sortBy(col, col === sortCol ? -sortDir : 1);
    page = 0;
    update();
  });
  filterEl.addEventListener('input', function () { page = 0; update(); });
  resultEl.addEventListener('change', function () { page = 0; update(); });
  document.getElementById('prev-page').addEventListener('click', function () { page--; render(); });
  document.getElementById('next-page').addEventListener('click', function () { page++; render(); });

  order = identity();
  head.children[0].setAttribute('aria-sort', 'ascending');
  update();
  document.documentElement.setAttribute('data-ready-ms', Math.round(performance.now()));
  document.documentElement.setAttribute('data-ready', 'true');
  setTimeout(hayLater, 0);
})();
