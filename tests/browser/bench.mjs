// The browser's figures for docs/sizes-and-speeds.md, printed, never asserted: wall
// times on a shared machine are too noisy for a test. Run by scripts/bench.sh after
// `trunk build --release`; `node tests/browser/bench.mjs [runs]` runs it alone.
import { serve, launch, openPage, waitForState } from './harness.mjs';

const RUNS = Number(process.argv[2] ?? 5);

function summary(values, unit = 'ms') {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  const f = (v) => v.toFixed(v < 10 ? 2 : 0);
  if (sorted.length === 1) return `${f(median)} ${unit}`;
  return `${f(sorted[0])}–${f(sorted[sorted.length - 1])} ${unit}, median ${f(median)} ${unit}`;
}

/** Wall time of a sweep of `seeds` seeds over all six strategies, as the page reports it. */
async function sweep(browser, base, seeds) {
  const page = await openPage(browser);
  await page.goto(`${base}?view=sweep&strategy=all&seeds=${seeds}`);
  await page.waitForSelector('[data-testid="sweep"][data-state="done"]', { timeout: 120_000 });
  const took = Number(await page.getAttribute('[data-testid="sweep"]', 'data-took-ms'));
  await page.context().close();
  return took;
}

/** Every frame's timeline draw time during a 10× playback of `strategy` with `query`. */
async function timelineFrames(browser, base, query, strategy) {
  const page = await openPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}?${query}&speed=10x`);
  await waitForState(page, 'idle');
  await page.evaluate(() => {
    window.__draws = [];
    const figure = document.querySelector('[data-testid="timeline"]');
    new MutationObserver(() => window.__draws.push(Number(figure.dataset.drawMs))).observe(figure, {
      attributes: true,
      attributeFilter: ['data-draw-ms'],
    });
  });
  await page.click(`[data-strategy="${strategy}"]`);
  await waitForState(page, 'done', 600_000);
  const draws = await page.evaluate(() => window.__draws);
  if (page.errors.length) throw new Error(page.errors.join('\n'));
  await page.context().close();
  return draws;
}

const server = await serve();
const browser = await launch();
try {
  console.log(`browser (headless chromium, ${RUNS} runs each)`);
  const sweeps = [];
  for (let i = 0; i < RUNS; i++) sweeps.push(await sweep(browser, server.base, 200));
  console.log(`  sweep, 200 seeds × 6 strategies:        ${summary(sweeps)} (target ≤ 2000 ms)`);

  for (const [label, query, strategy, runs] of [
    ['1,000 customers (keyed), 10×', 'seed=1', 'keyed', RUNS],
    ['10,000 customers (pool), 10×', 'seed=1&customers=10000', 'pool', 1],
  ]) {
    const perFrame = [];
    const worst = [];
    for (let i = 0; i < runs; i++) {
      const draws = await timelineFrames(browser, server.base, query, strategy);
      perFrame.push(...draws);
      worst.push(Math.max(...draws));
    }
    console.log(`  timeline draw, ${label}: per frame ${summary(perFrame)} over ${perFrame.length} frames; worst frame ${summary(worst)} (a frame is 16.7 ms)`);
  }
} finally {
  await browser.close();
  await server.close();
}
