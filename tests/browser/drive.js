// Drives headless Chromium through the pages `kifu html` wrote, following
// a plan written by tests/browser.rs, and prints what the pages showed as
// JSON. The Rust test compares it with kifu's own replay.
//
// usage: node drive.js PLAN.json CHROMIUM
// plan: {"pages": [{"name", "url", "actions": [
//          {"goto": "#ply=3"} | {"key": "ArrowRight", "times": 2} |
//          {"click": "css selector"} | {"read": "id"} |
//          (a read also gives the explorer's move rows and name; loads: ms per page)
//          {"save_svg": "path"} | {"screenshot": "path"}]}]}
'use strict';
const fs = require('fs');
const { withPage, run } = require('./launch');

async function main() {
  const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  await withPage({ viewport: { width: 1100, height: 720 }, timeoutMs: 15000 }, async (page, out) => {
    out.reads = [];
    out.loads = [];
    for (const p of plan.pages) {
      const t0 = Date.now();
      await page.goto(p.url);
      await page.waitForSelector('html[data-ready="true"]');
      out.loads.push({ page: p.name, ms: Date.now() - t0 });
      for (const a of p.actions) {
        if (a.goto !== undefined) {
          // A new load (not a same-document hash change): the page must read
          // the hash when it opens.
          await page.goto('about:blank');
          await page.goto(p.url + a.goto);
          await page.waitForSelector('html[data-ready="true"]');
        } else if (a.key) {
          for (let i = 0; i < (a.times || 1); i++) { await page.keyboard.press(a.key); }
        } else if (a.click) {
          await page.click(a.click);
        } else if (a.read) {
          const r = await page.evaluate(() => {
            const b = document.getElementById('board');
            const svg = b.querySelector('svg');
            const cur = document.querySelector('#moves li.current');
            return {
              sfen: b.getAttribute('data-sfen'),
              node: +b.getAttribute('data-node'),
              svg_sfen: svg && svg.getAttribute('data-sfen'),
              flip: svg && svg.getAttribute('data-flip'),
              pieces: svg ? svg.querySelectorAll('.piece').length : -1,
              current: cur ? cur.getAttribute('data-node') : null,
              hash: location.hash,
              // The tree explorer's move table and name (kifu tree --format html).
              rows: Array.from(document.querySelectorAll('#moves tbody tr[data-usi]'))
                .map((tr) => [tr.getAttribute('data-usi'), +tr.getAttribute('data-games')]),
              name: (document.getElementById('info') || { getAttribute: () => null }).getAttribute('data-name'),
            };
          });
          r.page = p.name;
          r.id = a.read;
          out.reads.push(r);
        } else if (a.save_svg) {
          const svg = await page.evaluate(() => new XMLSerializer().serializeToString(document.querySelector('#board svg')));
          fs.writeFileSync(a.save_svg, svg);
        } else if (a.screenshot) {
          await page.screenshot({ path: a.screenshot, fullPage: true });
        }
      }
    }
  });
}

run('drive.js', main);
