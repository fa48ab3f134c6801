// One cold load on a throttled phone, timed until the first control a reader needs is
// visible and enabled: shared by scripts/ready.mjs (every page, beside a plain page) and
// scripts/ready-ab.mjs (two builds, paired).
//
// Lighthouse's mobile throttling: 150 ms round trip, 1.6 Mbps down, 750 kbps up, CPU 4×
// slower; a cold cache for every load. The clock runs from navigation start.
import { chromium } from 'playwright-core';

// Each page, and the first control a reader needs on it.
export const PAGES = [
  // Each page as the lab's links open it (its own file, whose head starts its module),
  // then at the lab's bare address with the same query (the loader asks for it).
  ['run', 'run.html?seed=7', '[data-strategy]'],
  // A first visit: the bare address, no query, so the run page with its guided walk and
  // the opening story, whose Play button (disabled in the shell) is the first control.
  ['first', '', '[data-testid="opening-play"]'],
  // The same, until the stage's strategy buttons (what a first visit waited for before
  // the opening; both appear as the module mounts).
  ['first-stage', '', '[data-strategy]'],
  // A shared link to a run: the run starts playing as the page loads.
  ['run-link', 'run.html?strategy=timeout-no-key&seed=7', '[data-strategy]'],
  // On a phone the compare page shows a card per strategy (the table is for wider screens).
  ['compare', 'compare.html?view=compare&seed=7', '[data-card^="compare."]'],
  ['sweep', 'sweep.html?view=sweep', '[data-testid="sweep-run"]'],
  ['matrix', 'matrix.html?view=matrix&seed=1', '[data-cell] a'],
  ['limits', 'limits.html?section=limits', 'button[data-experiment]'],
  ['headers', 'headers.html?section=headers', '[data-testid="reader-block"]'],
  // The client view: Run, enabled once the module has mounted (the editor comes after).
  ['client', 'client.html?view=client&seed=7', '[data-testid="client-run"]'],
  // A framed widget, as the README's iframe opens it.
  ['embed', 'embed.html?embed=1&strategy=keyed&seed=3', '[data-stat]'],
  ['run-q', '?seed=7', '[data-strategy]'],
  ['run-link-q', '?strategy=timeout-no-key&seed=7', '[data-strategy]'],
  ['compare-q', '?view=compare&seed=7', '[data-card^="compare."]'],
  ['sweep-q', '?view=sweep', '[data-testid="sweep-run"]'],
  ['matrix-q', '?view=matrix&seed=1', '[data-cell] a'],
  ['limits-q', '?section=limits', 'button[data-experiment]'],
  ['headers-q', '?section=headers', '[data-testid="reader-block"]'],
  ['client-q', '?view=client&seed=7', '[data-testid="client-run"]'],
  ['embed-q', '?embed=1&strategy=keyed&seed=3', '[data-stat]'],
];

/** Headless Chromium as the benchmarks run it. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_BIN ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** Milliseconds from navigation start until `selector` is visible and enabled at `url`. */
export async function timeToReady(browser, url, selector) {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true });
  // The clock is read in the page, just after the frame that paints the control: the first
  // animation frame that finds it visible and enabled posts a task at the highest
  // priority, which runs once that frame's style, layout and paint are done (and before
  // any ordinary task, such as what the page builds after its first paint), and keeps the
  // time there. Reading it from here once the wait returns would add a round trip to the
  // browser and back: about 0.1 s under this throttling, on every page alike. The clock
  // starts at the first navigation, kept across the page's own redirects (the loader opens
  // a page's own file when a link names another page's): each document's
  // `performance.now()` starts at its own.
  await context.addInitScript((sel) => {
    const kept = Number(sessionStorage.getItem('rll-clock-start'));
    const start = kept > 0 ? kept : performance.timeOrigin;
    sessionStorage.setItem('rll-clock-start', String(start));
    const ready = () => {
      const el = document.querySelector(sel);
      if (!el || el.disabled) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const frame = () => {
      if (!ready()) return requestAnimationFrame(frame);
      scheduler.postTask(() => {
        window.__readyMs = performance.timeOrigin + performance.now() - start;
      }, { priority: 'user-blocking' });
    };
    requestAnimationFrame(frame);
  }, selector);
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
  const ms = await page
    .waitForFunction(() => window.__readyMs, null, { timeout: 60_000 })
    .then((handle) => handle.jsonValue())
    .catch((e) => {
      throw new Error(`${url}: ${selector} was not visible and enabled within 60 s (${e.message.split('\n')[0]})`);
    });
  await context.close();
  return ms;
}

/** The median (the lower middle of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
