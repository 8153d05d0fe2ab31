// Drives the live page in the machine's Chromium for LivePageBrowserTest, and prints what it saw
// as one JSON line per step; the test holds it against SQL.
//
//   node live-page.js BASE_URL READ_TOKEN OUT_DIR
//
// 1. "refused": the page without a token: the status /v1/live answered and whether the token form shows.
// 2. "rates":   the token entered; the increments per second the page showed, once a second for 8 s.
// 3. waits for a line on stdin holding an instant, then for the page to show types read after it;
//    "read":    the types and top counters it shows, a phone-sized view and a view without JavaScript.
// Screenshots go to OUT_DIR: live-page.png under load, live-page-read.png whole after it,
// live-page-phone.png on a phone's screen.
'use strict';

const path = require('path');
const readline = require('readline');
const { chromium } = require('playwright-core');

const [base, token, outDir] = process.argv.slice(2);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const lines = readline.createInterface({ input: process.stdin });
const nextLine = () => new Promise((resolve) => lines.once('line', resolve));
const print = (step) => process.stdout.write(JSON.stringify(step) + '\n');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const liveStatuses = [];
    const consoleErrors = [];
    page.on('response', (r) => { if (r.url().endsWith('/v1/live')) liveStatuses.push(r.status()); });
    // The browser logs the refusal of /v1/live without a token, which is the page working.
    page.on('console', (m) => {
      // The doctor refused to a read token is logged too.
      if (m.type() === 'error' && !m.text().includes('status of 401') && !m.text().includes('status of 403')) {
        consoleErrors.push(m.text());
      }
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));

    await page.goto(base + '/');
    await page.waitForSelector('#token-form:not([hidden])', { timeout: 15000 });
    print({ step: 'refused', liveStatuses: liveStatuses.slice(), formVisible: await page.isVisible('#token-form'),
      status: await page.textContent('#status'), rate: await page.textContent('#rate') });

    await page.fill('#token', token);
    await page.click('#token-form button[type=submit]');
    await page.waitForFunction(() => document.getElementById('rate').textContent !== '—', null, { timeout: 15000 });
    const rates = [];
    for (let i = 0; i < 8; i++) {
      rates.push(await page.textContent('#rate'));
      await sleep(1000);
    }
    // Under load: the picture the README shows.
    await page.screenshot({ path: path.join(outDir, 'live-page.png') });
    print({ step: 'rates', rates, charts: await page.locator('.uplot canvas').count(),
      formVisible: await page.isVisible('#token-form'), stored: await page.evaluate(() => sessionStorage.length),
      url: page.url() });

    const after = (await nextLine()).trim();
    await page.waitForFunction((instant) => {
      const at = document.getElementById('types-read').dataset.at;
      return at && Date.parse(at) > Date.parse(instant);
    }, after, { timeout: 30000, polling: 250 });
    const types = await page.$$eval('#types tbody tr', (rows) => rows.map((row) => ({
      type: row.dataset.type, cells: Array.from(row.cells).map((c) => c.textContent) })));
    const top = await page.$$eval('#top .top', (tops) => tops.map((t) => ({
      type: t.dataset.type, from: t.dataset.from,
      counters: Array.from(t.querySelectorAll('tbody tr')).filter((r) => r.dataset.id !== undefined)
        .map((r) => ({ id: r.dataset.id, count: r.dataset.count })) })));
    // The doctor needs the admin scope, which a read token lacks: the page says so.
    await page.click('#doctor-run');
    await page.waitForFunction(() => document.getElementById('doctor').textContent.includes('answered'), null,
      { timeout: 15000 });
    const doctor = await page.textContent('#doctor');
    const screenshot = path.join(outDir, 'live-page-read.png');
    await page.screenshot({ path: screenshot, fullPage: true });

    // The phone's tab has the token from its first script on, as if it had been entered before.
    const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true,
      hasTouch: true, deviceScaleFactor: 2 });
    await phoneContext.addInitScript((t) => sessionStorage.setItem('slotted.token', t), token);
    const phone = await phoneContext.newPage();
    await phone.goto(base + '/');
    await phone.waitForFunction(() => document.getElementById('rate').textContent !== '—', null, { timeout: 15000 });
    const phoneWidths = await phone.evaluate(() => ({ page: document.documentElement.scrollWidth,
      viewport: window.innerWidth }));
    await phone.screenshot({ path: path.join(outDir, 'live-page-phone.png') });

    const plain = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await plain.goto(base + '/');
    const noScript = {
      headings: await plain.$$eval('h1, h2', (hs) => hs.map((h) => h.textContent.trim())),
      notice: await plain.isVisible('noscript p') ? await plain.textContent('noscript p') : null,
      body: await plain.textContent('body'),
    };
    print({ step: 'read', after, types, top, doctor, screenshot, phoneWidths, noScript, consoleErrors });
  } finally {
    await browser.close();
    lines.close();
  }
}

main().catch((e) => {
  process.stderr.write((e && e.stack) || String(e));
  process.exit(1);
});
