// A reader's path through the lab with numbers of their own: the run page, then the
// tabs to compare, sweep, limits and headers, then Back through each. At every step the
// address names what is on screen (the seed and every changed number are in it, and a
// fresh page opened on it shows the same numbers), and the footer's command, run with the
// release CLI, prints those numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, readStats, readResults, cli, footerArgs, assertAddress } from './harness.mjs';

const lab = useLab(before, after);

// The seed and four parameters differ from the article's; 300 customers keep it quick.
const CHANGED = { seed: '5', customers: '300', maxInflight: '8', timeoutMs: '700', jitter: 'on' };
const START = `?strategy=pool&${new URLSearchParams(CHANGED)}&speed=instant`;
const SWEEP_SEEDS = '4';
const EXPERIMENT = 'burst';

/** The header lines the headers page shows, by status. */
function readHeaders(page) {
  return page.$$eval('[data-testid="response-headers"] [data-status]', (blocks) =>
    blocks.map((b) => ({
      status: Number(b.dataset.status),
      headers: [...b.querySelectorAll('[data-header]')].map((e) => e.textContent.trim()),
    })),
  );
}

/** Each page on the path: what its address holds beside `CHANGED`, when it is ready,
 * what numbers it shows, and how they compare with its command's `--json`. */
const PAGES = {
  run: {
    address: { strategy: 'pool', speed: 'instant' },
    ready: '[data-testid="app"][data-run-state="done"]',
    read: (page) => readStats(page),
    checkCli(shown, json) {
      assert.equal(json.strategy, 'pool');
      const fields = Object.keys(json).filter((k) => !['strategy', 'seed', 'customers'].includes(k));
      assert.ok(fields.length >= 27, `the CLI's stats fields: ${fields.length}`);
      assert.equal(Object.keys(shown).length, fields.length, 'one counter per stats field');
      for (const [field, value] of Object.entries(shown)) {
        assert.equal(value, String(json[field]), `run: ${field}`);
      }
    },
  },
  compare: {
    address: { view: 'compare' },
    ready: '[data-testid="compare"][data-state="done"]',
    read: (page) => readResults(page, '[data-testid="compare"]'),
    checkCli(shown, json) {
      assert.equal(json.length, 10, 'ten strategies');
      let cells = 0;
      for (const run of json) {
        for (const [field, value] of Object.entries(run)) {
          if (['strategy', 'seed', 'customers'].includes(field)) continue;
          assert.equal(shown[`compare.${run.strategy}.${field}`], String(value), `compare: ${run.strategy}.${field}`);
          cells++;
        }
        const perCharge = run.charges ? (Math.round((run.requests * 100) / run.charges) / 100).toFixed(2) : '—';
        assert.equal(shown[`compare.${run.strategy}.requestsPerCharge`], perCharge, `compare: ${run.strategy}.requestsPerCharge`);
        cells++;
      }
      assert.equal(Object.keys(shown).length, cells, 'every cell on the page is one of the command\'s numbers');
    },
  },
  sweep: {
    address: { view: 'sweep', strategy: 'pool', seeds: SWEEP_SEEDS },
    ready: '[data-testid="sweep"][data-state="done"]',
    read: (page) => readResults(page, '[data-testid="sweep"]'),
    checkCli(shown, json) {
      let cells = 0;
      for (const [key, value] of Object.entries(shown)) {
        const [, strategy, field, stat] = key.split('.');
        assert.equal(strategy, 'pool', key);
        if (field === 'sentence') continue;
        assert.ok(json.fields[field], `the command prints ${field}`);
        assert.equal(value, String(json.fields[field][stat]), `sweep: ${field}.${stat}`);
        cells++;
      }
      assert.equal(cells, 8 * 3, 'min, median and max of the eight stats');
    },
  },
  limits: {
    address: { section: 'limits', experiment: EXPERIMENT },
    ready: `[data-testid="limits"][data-state="done"][data-experiment="${EXPERIMENT}"]`,
    read: (page) => readResults(page, '[data-testid="limits"]'),
    checkCli(shown, json) {
      assert.ok(Object.keys(json.cells).length > 5, 'the experiment has cells');
      assert.deepEqual(shown, json.cells);
    },
  },
  headers: {
    address: { section: 'headers' },
    ready: '[data-testid="response-headers"] [data-status] [data-header]',
    read: readHeaders,
    checkCli(shown, json) {
      // cli() has already proved the command exits 0; the lines are its, too.
      assert.deepEqual(shown, json.map((s) => ({ status: s.status, headers: s.headers.map(([k, v]) => `${k}: ${v}`) })));
    },
  },
};

/** Checks the page `name` on screen: its address, a fresh page opened on that address,
 * and the footer's command. Returns the numbers it shows. */
async function checkStep(page, name) {
  const { address, ready, read, checkCli } = PAGES[name];
  await page.waitForSelector(ready);
  const shown = await read(page);
  assert.ok(Object.keys(shown).length > 0, `${name}: numbers on screen`);

  await assertAddress(page, { ...CHANGED, ...address }, name);
  const [href, search] = await page.evaluate(() => [location.href, location.search]);

  const fresh = await openPage(lab.browser);
  await fresh.goto(href);
  await fresh.waitForSelector(ready);
  assert.deepEqual(await read(fresh), shown, `${name}: a fresh page on ${search} shows the same numbers`);
  assert.deepEqual(fresh.errors, []);
  await fresh.context().close();

  const args = await footerArgs(page);
  checkCli(shown, cli(args));
  return shown;
}

test('run → compare → sweep → limits → headers and Back: every address and every footer command reproduces its page', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1280, height: 900 } });
  const seen = {};

  await page.goto(lab.server.base + START);
  seen.run = await checkStep(page, 'run');

  await page.click('a[data-view="compare"]');
  seen.compare = await checkStep(page, 'compare');

  await page.click('a[data-view="sweep"]');
  await page.waitForSelector('[data-testid="sweep"][data-state="idle"]');
  await page.selectOption('[data-testid="sweep-strategy"]', 'pool');
  await page.fill('[data-testid="sweep-seeds"]', SWEEP_SEEDS);
  await page.click('[data-testid="sweep-run"]');
  seen.sweep = await checkStep(page, 'sweep');

  await page.click('a[data-section="limits"]');
  await page.waitForSelector('[data-testid="limits"]');
  await page.click(`button[data-experiment="${EXPERIMENT}"]`);
  seen.limits = await checkStep(page, 'limits');

  await page.click('a[data-section="headers"]');
  seen.headers = await checkStep(page, 'headers');

  for (const name of ['limits', 'sweep', 'compare', 'run']) {
    await page.goBack();
    assert.deepEqual(await checkStep(page, name), seen[name], `Back to ${name} shows what it showed`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
