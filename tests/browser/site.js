// Drives headless Chromium over the site `kifu html --out-dir` writes
// (tests/browser.rs, `site_in_headless_chromium`): the index of 100,000
// synthetic games (load, sort and filter timed), the index of a real run
// (its links), and the evaluation graph of a game page (a click on it moves
// the board). Prints what it saw as JSON.
//
// usage: node site.js PLAN.json CHROMIUM
// plan: {"big": URL, "site": URL, "eval_page": URL, "eval_plies": [N…],
//        "plain_page": URL, "shots": DIR}
'use strict';
const path = require('path');
const fs = require('fs');
const { withPage, run } = require('./launch');

async function main() {
  const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  await withPage({ viewport: { width: 1280, height: 800 }, timeoutMs: 30000 }, async (page, out) => {
    const ready = () => page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
    const table = () => page.evaluate(() => ({
      shown: +document.documentElement.getAttribute('data-shown'),
      rows: Array.prototype.map.call(document.querySelectorAll('#games tbody tr'),
        (tr) => Array.prototype.map.call(tr.children, (td) => td.textContent)),
      count: document.getElementById('count').textContent,
      explorer: !!document.getElementById('explorer'),
    }));
    // A click (or input) whose handler runs to the end before it returns:
    // the time is the sort or filter and the drawing of the page of rows.
    const timed = (fn) => page.evaluate(fn);

    // 1. The big index: load time, then a sort and a filter.
    // The browser is started first: the time is the page's, from the
    // start of its navigation until the table shows (data-ready-ms).
    await page.goto('about:blank');
    const t0 = Date.now();
    await page.goto(plan.big, { waitUntil: 'load' });
    await ready();
    out.big_wall_ms = Date.now() - t0;
    out.big_load_ms = await page.evaluate(() => +document.documentElement.getAttribute('data-ready-ms'));
    // Let the filter's text be built, as it is while a reader looks.
    await page.waitForTimeout(1500);
    out.big_open = await table();
    out.big_sort_ms = await timed(() => {
      const t = performance.now();
      document.querySelector('#games th[data-col="9"]').click();
      return performance.now() - t;
    });
    out.big_sorted = await table();
    out.big_sort_desc_ms = await timed(() => {
      const t = performance.now();
      document.querySelector('#games th[data-col="9"]').click();
      return performance.now() - t;
    });
    out.big_sorted_desc = await table();
    out.big_filter_ms = await timed(() => {
      const t = performance.now();
      const f = document.getElementById('filter');
      f.value = 'player 4242';
      f.dispatchEvent(new Event('input'));
      return performance.now() - t;
    });
    out.big_filtered = await table();
    out.big_result_ms = await timed(() => {
      const t = performance.now();
      const f = document.getElementById('filter');
      f.value = '';
      f.dispatchEvent(new Event('input'));
      const r = document.getElementById('result-filter');
      r.value = 'draw';
      r.dispatchEvent(new Event('change'));
      return performance.now() - t;
    });
    out.big_draws = await table();
    await page.evaluate(() => {
      const r = document.getElementById('result-filter');
      r.value = '';
      r.dispatchEvent(new Event('change'));
      const f = document.getElementById('filter');
      f.value = '</script>';
      f.dispatchEvent(new Event('input'));
    });
    out.big_hostile = await table();
    await page.click('#next-page').catch(() => {});
    await page.screenshot({ path: path.join(plan.shots, 'site-index-big.png') });

    // 2. The index of a real run: its rows, and a link that opens a page.
    await page.goto(plan.site);
    await ready();
    out.site = await table();
    await page.screenshot({ path: path.join(plan.shots, 'site-index.png'), fullPage: true });
    await Promise.all([page.waitForNavigation(), page.click('#games tbody tr:first-child td:first-child a')]);
    await ready();
    out.site_link = page.url();
    // The collection's opening explorer, from the index's link.
    await page.goto(plan.site);
    await ready();
    await Promise.all([page.waitForNavigation(), page.click('#explorer')]);
    await page.waitForSelector('#moves tbody tr');
    out.explorer_url = page.url();
    out.explorer_rows = await page.evaluate(() => document.querySelectorAll('#moves tbody tr').length);

    // 3. The evaluation graph: a click on a point moves the board there.
    await page.goto(plan.eval_page);
    await ready();
    out.graph = await page.evaluate(() => !!document.querySelector('#evalgraph svg'));
    out.graph_points = await page.evaluate(() => document.querySelectorAll('#evalgraph circle[data-ply]').length);
    out.eval_clicks = [];
    for (const n of plan.eval_plies) {
      await page.click('#evalgraph circle[data-ply="' + n + '"]', { force: true });
      out.eval_clicks.push(await page.evaluate(() => +document.getElementById('board').getAttribute('data-ply')));
    }
    // A click on the graph's far left: the start.
    const box = await page.locator('#evalgraph svg').boundingBox();
    await page.mouse.click(box.x + 1, box.y + box.height / 2);
    out.eval_left = await page.evaluate(() => +document.getElementById('board').getAttribute('data-ply'));
    await page.screenshot({ path: path.join(plan.shots, 'site-eval.png'), fullPage: true });

    // 4. A game without evaluations shows no graph.
    await page.goto(plan.plain_page);
    await ready();
    out.plain_graph = await page.evaluate(() => !!document.getElementById('evalgraph'));
  });
}

run('site.js', main);
