// A parameter sweep on the sweep page: a preset's link with few seeds and customers runs
// by itself, and every point it shows (value, min, median, max per strategy) is the
// release CLI's `--json` for the same settings, as is the footer's command. Clicking a
// point opens that run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, readResults, cli, footerArgs, assertAddress } from './harness.mjs';

const lab = useLab(before, after);

const SETTINGS = { param: 'timeoutMs', from: '200', to: '3000', steps: '5', stat: 'duplicates', seeds: '5', customers: '300' };
const QUERY = `?view=sweep&${new URLSearchParams(SETTINGS)}`;
const DONE = '[data-testid="psweep"][data-state="done"]';

/** The points on the page, per strategy, in the JSON's shape. */
function pointsOf(cells) {
  const out = {};
  for (const [key, text] of Object.entries(cells)) {
    const [kind, strategy, i, field] = key.split('.');
    if (kind !== 'psweep') continue;
    out[strategy] ??= [];
    out[strategy][Number(i)] ??= {};
    out[strategy][Number(i)][field] = text;
  }
  return out;
}

/** The CLI's JSON points as the page's text. */
function expected(json) {
  return Object.fromEntries(
    json.strategies.map((s) => [
      s.strategy,
      s.points.map((p) => ({ value: String(p.value), min: String(p.min), median: String(p.median), max: String(p.max) })),
    ]),
  );
}

test('a parameter sweep link runs, and its points are the CLI\'s', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(lab.server.base + QUERY);
  await page.waitForSelector(DONE, { timeout: 60_000 });
  const shown = pointsOf(await readResults(page, '[data-testid="psweep"]'));

  const json = cli([
    'charges', '--sweep-param', 'timeoutMs=200..=3000:5', '--seeds', '1..=5', '--stat', 'duplicates', '--customers', '300',
  ]);
  assert.deepEqual(
    Object.keys(shown),
    ['timeout-no-key', 'keyed', 'pool', 'headers', 'budget', 'breaker', 'adaptive'],
    'the strategies that read the timeout',
  );
  assert.deepEqual(shown, expected(json));
  assert.equal(shown.keyed.length, 5, 'five values');

  // The address names the sweep on screen; the footer's command prints the same points.
  await assertAddress(page, { view: 'sweep', ...SETTINGS });
  assert.deepEqual(expected(cli(await footerArgs(page))), shown);

  // The chart: one line per strategy, axes labelled with the parameter and the stat.
  const texts = await page.$$eval('[data-testid="psweep"] svg text', (els) => els.map((e) => e.textContent));
  assert.ok(texts.includes('Client timeout (ms)'), texts.join('|'));
  assert.ok(texts.includes('Extra charges'), texts.join('|'));
  const fontPx = await page.$eval('[data-testid="psweep"] svg text', (e) => e.getBoundingClientRect().height);
  assert.ok(fontPx >= 12, `tick labels are at least 12 px (${fontPx})`);

  // A point opens that run: the run page with the value and seed 1.
  await page.locator('[data-testid="psweep"] g[data-strategy="timeout-no-key"] circle').first().dispatchEvent('click');
  await page.waitForURL(/view=run/);
  await assertAddress(page, { strategy: 'timeout-no-key', seed: '1', timeoutMs: '200', customers: '300' });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a preset runs from its button, and Cancel stops a sweep', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(lab.server.base + '?view=sweep&customers=200');
  await page.click('button[data-preset="Workers vs elapsed time"]');
  await page.waitForSelector(DONE, { timeout: 60_000 });
  await assertAddress(page, { view: 'sweep', strategy: 'pool', param: 'workers', from: '1', to: '20', stat: 'elapsedMs', seeds: '50' });
  const shown = pointsOf(await readResults(page, '[data-testid="psweep"]'));
  assert.deepEqual(Object.keys(shown), ['pool']);
  assert.equal(shown.pool.length, 20);

  await page.fill('[data-testid="psweep-seeds"]', '2000');
  await page.fill('[data-testid="psweep-steps"]', '5');
  await page.click('[data-testid="psweep-run"]');
  await page.waitForSelector('[data-testid="psweep"][data-state="running"]');
  await page.click('[data-testid="psweep-cancel"]');
  await page.waitForSelector('[data-testid="psweep"][data-state="cancelled"]');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
