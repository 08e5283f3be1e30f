// What drive.js and site.js share: headless Chromium started the way this
// machine's closed network needs (no background connections), one page that
// records errors and every request leaving file:, and a time limit.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

// Runs `body(page, out)` in a fresh headless Chromium (CHROMIUM is the
// script's second argument) and prints `out` as JSON. `out` starts with
// `errors` (page errors and console errors) and `requests` (every URL not
// under file:, so a test can check the pages stay offline).
async function withPage({ viewport, timeoutMs }, body) {
  const executablePath = process.argv[3] || '/usr/bin/chromium';
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kifu-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    viewport,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const out = { errors: [], requests: [] };
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(timeoutMs);
    page.on('pageerror', (e) => out.errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') { out.errors.push(m.text()); } });
    page.on('request', (r) => { if (!r.url().startsWith('file:')) { out.requests.push(r.url()); } });
    await body(page, out);
  } finally {
    await context.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify(out));
}

// Runs `main` with a time limit of four minutes: exit 3 when it is over,
// exit 1 with the stack when `main` throws.
function run(name, main) {
  const timer = setTimeout(() => { console.error(name + ': timed out'); process.exit(3); }, 240000);
  main().then(() => clearTimeout(timer), (e) => { console.error(e && e.stack || String(e)); process.exit(1); });
}

module.exports = { withPage, run };
