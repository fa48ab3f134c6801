// One cold load on a throttled phone, timed until the first control a reader needs is
// visible and enabled: shared by scripts/ready.mjs (every page, beside a plain page) and
// scripts/ready-ab.mjs (two builds, paired).
//
// Lighthouse's mobile throttling: 150 ms round trip, 1.6 Mbps down, 750 kbps up, CPU 4×
// slower; a cold cache for every load. The clock runs from navigation start.
import { chromium } from 'playwright-core';

// Each page, the first control a reader needs on it, and its first screen's picture
// (what the reader came to see: the opening's drawings, the stage, the table).
const STAGE = '[data-testid="stage"]';
export const PAGES = [
  // Each page as the lab's links open it (its own file, whose head starts its module),
  // then at the lab's bare address with the same query (the loader asks for it).
  ['run', 'run.html?seed=7', '[data-strategy]', STAGE],
  // A first visit: the bare address, no query, so the run page with its guided walk and
  // the opening story, whose Play button (disabled in the shell) is the first control,
  // and whose two drawings (painted by the shell) the picture.
  ['first', '', '[data-testid="opening-play"]', '[data-testid="opening-with"] svg'],
  // The same, until the stage's strategy buttons (what a first visit waited for before
  // the opening; both appear as the module mounts).
  ['first-stage', '', '[data-strategy]', STAGE],
  // A shared link to a run: the run starts playing as the page loads.
  ['run-link', 'run.html?strategy=timeout-no-key&seed=7', '[data-strategy]', STAGE],
  // On a phone the compare page shows a card per strategy (the table is for wider screens).
  ['compare', 'compare.html?view=compare&seed=7', '[data-card^="compare."]', '[data-testid="compare-cards"]'],
  ['sweep', 'sweep.html?view=sweep', '[data-testid="sweep-run"]', '[data-testid="sweep"]'],
  ['matrix', 'matrix.html?view=matrix&seed=1', '[data-cell] a', '[data-testid="matrix"]'],
  ['limits', 'limits.html?section=limits', 'button[data-experiment]', '[data-testid="limits"]'],
  ['headers', 'headers.html?section=headers', '[data-testid="reader-block"]', '[data-testid="header-reader"]'],
  // The client view: Run, enabled once the module has mounted (the editor comes after).
  ['client', 'client.html?view=client&seed=7', '[data-testid="client-run"]', '[data-testid="client-view"]'],
  // A framed widget, as the README's iframe opens it.
  ['embed', 'embed.html?embed=1&strategy=keyed&seed=3', '[data-stat]', '[data-testid="widget"]'],
  ['run-q', '?seed=7', '[data-strategy]', STAGE],
  ['run-link-q', '?strategy=timeout-no-key&seed=7', '[data-strategy]', STAGE],
  ['compare-q', '?view=compare&seed=7', '[data-card^="compare."]', '[data-testid="compare-cards"]'],
  ['sweep-q', '?view=sweep', '[data-testid="sweep-run"]', '[data-testid="sweep"]'],
  ['matrix-q', '?view=matrix&seed=1', '[data-cell] a', '[data-testid="matrix"]'],
  ['limits-q', '?section=limits', 'button[data-experiment]', '[data-testid="limits"]'],
  ['headers-q', '?section=headers', '[data-testid="reader-block"]', '[data-testid="header-reader"]'],
  ['client-q', '?view=client&seed=7', '[data-testid="client-run"]', '[data-testid="client-view"]'],
  ['embed-q', '?embed=1&strategy=keyed&seed=3', '[data-stat]', '[data-testid="widget"]'],
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
  return (await firstLoad(browser, url, selector)).readyMs;
}

/**
 * One cold load of `url`: milliseconds from navigation start until `selector` is visible
 * and enabled (`readyMs`), until `picture` is visible (`pictureMs`, if given), and the
 * bytes the page's document had received when the control was ready (`bytes`: its file
 * and every file it fetched, headers included, finished by then), and when the last
 * WebAssembly module it had by then finished arriving (`moduleMs`; null for a page with
 * none).
 */
export async function firstLoad(browser, url, selector, picture = null) {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true });
  // The clocks are read in the page, just after the frame that paints the element: the
  // first animation frame that finds it visible (and, for the control, enabled) posts a
  // task at the highest priority, which runs once that frame's style, layout and paint
  // are done (and before any ordinary task, such as what the page builds after its first
  // paint), and keeps the time there. Reading it from here once the wait returns would
  // add a round trip to the browser and back: about 0.1 s under this throttling, on every
  // page alike. The clock starts at the first navigation, kept across the page's own
  // redirects (the loader opens a page's own file when a link names another page's):
  // each document's `performance.now()` starts at its own.
  await context.addInitScript(([sel, pic]) => {
    const kept = Number(sessionStorage.getItem('rll-clock-start'));
    const start = kept > 0 ? kept : performance.timeOrigin;
    sessionStorage.setItem('rll-clock-start', String(start));
    const shown = (s, enabled) => {
      const el = document.querySelector(s);
      if (!el || (enabled && el.disabled)) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const watch = (s, enabled, done) => {
      const frame = () => {
        if (!shown(s, enabled)) return requestAnimationFrame(frame);
        scheduler.postTask(() => done(performance.now()), { priority: 'user-blocking' });
      };
      requestAnimationFrame(frame);
    };
    const since = (now) => performance.timeOrigin + now - start;
    // The bytes this document had by then: its own file and every file done by `now`.
    const finished = (now) => performance.getEntriesByType('resource').filter((e) => e.responseEnd > 0 && e.responseEnd <= now);
    const bytes = (now) => {
      const [nav] = performance.getEntriesByType('navigation');
      return (nav?.transferSize ?? 0) + finished(now).reduce((sum, e) => sum + e.transferSize, 0);
    };
    // When the last WebAssembly module this document had by then finished arriving: what
    // lies between it and ready is the module's start-up (compile, instantiate, mount, the
    // first layout), what lies before it mostly the bytes on the line.
    const moduleDone = (now) => {
      const ends = finished(now).filter((e) => e.name.split('?')[0].endsWith('.wasm')).map((e) => e.responseEnd);
      return ends.length > 0 ? since(Math.max(...ends)) : null;
    };
    if (pic) watch(pic, false, (now) => { window.__pictureMs = since(now); });
    watch(sel, true, (now) => { window.__ready = { ms: since(now), bytes: bytes(now), moduleMs: moduleDone(now) }; });
  }, [selector, picture]);
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
  const wanted = picture ? () => window.__ready && window.__pictureMs : () => window.__ready;
  const got = await page
    .waitForFunction(wanted, null, { timeout: 60_000 })
    .then(() => page.evaluate(() => ({ readyMs: window.__ready.ms, bytes: window.__ready.bytes, moduleMs: window.__ready.moduleMs, pictureMs: window.__pictureMs ?? null })))
    .catch((e) => {
      throw new Error(`${url}: ${selector}${picture ? ` or ${picture}` : ''} was not visible (and enabled) within 60 s (${e.message.split('\n')[0]})`);
    });
  await context.close();
  return got;
}

/** The median (the lower middle of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
