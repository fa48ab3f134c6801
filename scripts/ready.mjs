// Time to ready on a throttled phone link, for every page of the lab, beside a plain HTML
// page in the same run (this machine is noisy; the ratio to the plain page is what
// travels). A benchmark, not a test: it prints figures for the README and asserts nothing.
//
//   node scripts/ready.mjs [--runs 5] [--dist dist]
//
// Lighthouse's mobile throttling: 150 ms round trip, 1.6 Mbps down, 750 kbps up, CPU 4×
// slower; served with gzip like a static host; a cold cache for every load. The clock
// runs from navigation start until the first control a reader needs is visible and
// enabled.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { arg, serveGzip } from './gzip-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(arg('--runs', '5'));
const DIST = path.resolve(arg('--dist', path.join(ROOT, 'dist')));

// The plain page: one paragraph and a button, no script.
const PLAIN =
  '<!doctype html><meta name="viewport" content="width=device-width"><title>plain</title>' +
  '<p>A plain page.</p><button id="go">Go</button>';

// Each page, and the first control a reader needs on it.
const PAGES = [
  ['plain', 'plain.html', '#go'],
  ['run', '?seed=7', '[data-strategy]'],
  // A first visit: no query, so the run page with its guided walk.
  ['first', '', '[data-strategy]'],
  // A shared link to a run: the run starts playing as the page loads.
  ['run-link', '?strategy=timeout-no-key&seed=7', '[data-strategy]'],
  // On a phone the compare page shows a card per strategy (the table is for wider screens).
  ['compare', '?view=compare&seed=7', '[data-card^="compare."]'],
  ['sweep', '?view=sweep', '[data-testid="sweep-run"]'],
  ['matrix', '?view=matrix&seed=1', '[data-cell] a'],
  ['limits', '?section=limits', 'button[data-experiment]'],
  ['headers', '?section=headers', '[data-testid="reader-block"]'],
  ['embed', '?embed=1&strategy=keyed&seed=3', '[data-stat]'],
];

async function timeToReady(browser, url, selector) {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(
    (sel) => {
      const el = document.querySelector(sel);
      if (!el || el.disabled) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    },
    selector,
    { timeout: 60_000, polling: 'raf' },
  );
  const ms = await page.evaluate(() => performance.now());
  await context.close();
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

const server = await serveGzip(DIST, { extra: { '/plain.html': [Buffer.from(PLAIN), 'text/html; charset=utf-8'] } });
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_BIN ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const times = Object.fromEntries(PAGES.map(([name]) => [name, []]));
// Interleaved, so a noisy minute touches every page alike.
for (let run = 0; run < RUNS; run += 1) {
  for (const [name, link, selector] of PAGES) {
    times[name].push(await timeToReady(browser, base + link, selector));
  }
}
await browser.close();
server.close();

console.log(`time to ready, ${RUNS} cold loads each (150 ms RTT, 1.6 Mbps down, 750 kbps up, CPU ×4, gzip)`);
console.log('page       median     min–max       × plain');
const plain = median(times.plain);
for (const [name] of PAGES) {
  const xs = times[name];
  const m = median(xs);
  const line = `${name.padEnd(9)} ${(m / 1000).toFixed(2).padStart(6)} s  ${(Math.min(...xs) / 1000).toFixed(2)}–${(Math.max(...xs) / 1000).toFixed(2)} s  ${(m / plain).toFixed(2).padStart(6)}`;
  console.log(line);
}
