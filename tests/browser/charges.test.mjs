// The charges section in a real browser: same numbers as the CLI, buttons, playback
// speed, bad links, and a screenshot for a person to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState, readStats, cli, screenshotPath, assertAddress } from './harness.mjs';

const STRATEGIES = [
  'naive', 'paced', 'retry', 'timeout-no-key', 'keyed', 'pool', 'headers', 'budget', 'breaker', 'adaptive',
];
// Every stats field the CLI prints for a run (its JSON, less the run's own names).
const STAT_FIELDS = Object.keys(cli(['charges', '--strategy', 'keyed', '--seed', '1']))
  .filter((k) => !['strategy', 'seed', 'customers'].includes(k));

const lab = useLab(before, after);

for (const [seed, incident] of [['1', 'none'], ['20261129', 'none'], ['18446744073709551615', 'none'], ['2', 'down'], ['3', 'capacity']]) {
  test(`every counter equals the CLI's, seed ${seed}, incident ${incident}`, async () => {
    const page = await openPage(lab.browser);
    for (const strategy of STRATEGIES) {
      const extra = incident === 'none' ? '' : `&incident=${incident}`;
      await page.goto(`${lab.server.base}?strategy=${strategy}&seed=${seed}${extra}&speed=instant`);
      await waitForState(page, 'done');
      // The counters panel lies below the stage, built once the first frame has painted:
      // a run done before then is read once it is there.
      await page.waitForFunction((n) => new Set([...document.querySelectorAll('[data-stat]')].map((e) => e.dataset.stat)).size >= n, STAT_FIELDS.length);
      const expected = cli(['charges', '--strategy', strategy, '--seed', seed, '--incident', incident]);
      const shown = await readStats(page);
      assert.deepEqual(Object.keys(shown).sort(), [...STAT_FIELDS].sort(), 'one counter per stats field');
      for (const field of STAT_FIELDS) {
        assert.equal(shown[field], String(expected[field]), `${strategy} seed ${seed}: ${field}`);
      }
      const lastRun = await page.evaluate(() => window.rateLimitLab.lastRun);
      for (const field of STAT_FIELDS) {
        assert.equal(lastRun[field], expected[field], `lastRun.${field}`);
      }
      assert.equal(lastRun.strategy, strategy);
      assert.equal(lastRun.seed, seed);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('each button runs its strategy and the counters change', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?seed=5`);
  await waitForState(page, 'idle');
  assert.equal((await readStats(page)).requests, '0');
  await page.click('[data-speed="instant"]');
  let previous = null;
  for (const strategy of STRATEGIES) {
    await page.click(`[data-strategy="${strategy}"]`);
    await waitForState(page, 'done');
    const shown = await readStats(page);
    const expected = cli(['charges', '--strategy', strategy, '--seed', '5']);
    assert.equal(shown.requests, String(expected.requests), strategy);
    assert.equal(shown.duplicates, String(expected.duplicates), strategy);
    // The next rungs act on refusals, and a calm seed 5 refuses nothing, so they give
    // the pool's numbers; the CLI check above holds them to theirs all the same.
    if (STRATEGIES.indexOf(strategy) < 6) assert.notDeepEqual(shown, previous, `${strategy} changed the counters`);
    assert.equal(await page.getAttribute(`[data-strategy="${strategy}"]`, 'aria-pressed'), 'true');
    await assertAddress(page, { strategy, seed: '5' });
    previous = shown;
  }
  // A watched run: running, then paused, then resumed to the end.
  await page.click('[data-speed="1x"]');
  await page.click('[data-strategy="keyed"]');
  await waitForState(page, 'running');
  await page.waitForFunction(() => Number(document.querySelector('[data-stat="requests"]').textContent.replace(/,/g, '')) > 20);
  await page.click('[data-testid="pause"]');
  await waitForState(page, 'paused');
  const frozen = await readStats(page);
  await page.waitForTimeout(400);
  assert.deepEqual(await readStats(page), frozen, 'nothing moves while paused');
  await page.click('[data-speed="instant"]');
  await page.click('[data-testid="pause"]');
  await waitForState(page, 'done');
  assert.equal((await readStats(page)).requests, String(cli(['charges', '--strategy', 'keyed', '--seed', '5']).requests));
  await page.click('[data-testid="reset"]');
  await waitForState(page, 'idle');
  assert.equal((await readStats(page)).requests, '0');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the summary appears once, at the end', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=1x`);
  await waitForState(page, 'running');
  assert.equal((await page.textContent('[data-testid="summary"]')).trim(), '', 'silent while running');
  await page.click('[data-speed="instant"]');
  await waitForState(page, 'done');
  const expected = cli(['charges', '--strategy', 'keyed', '--seed', '1']);
  const summary = await page.textContent('[data-testid="summary"]');
  assert.match(summary, new RegExp(`^All 990 valid customers charged exactly once, with ${expected.requests.toLocaleString('en-US')} requests in `));
  assert.equal(await page.getAttribute('[data-testid="summary"]', 'data-tone'), 'good');
  await page.context().close();
});

test('the verdict says how bad a harmful run was, in harm colours', async () => {
  const page = await openPage(lab.browser);
  for (const [strategy, pattern] of [
    ['naive', (e) => new RegExp(`^${(990 - e.customersCharged).toLocaleString('en-US')} of 990 valid customers never charged`)],
    ['timeout-no-key', (e) => new RegExp(`^${e.duplicates} extra charges \\(customers who paid twice\\)`)],
  ]) {
    await page.goto(`${lab.server.base}?strategy=${strategy}&seed=7&speed=instant`);
    await waitForState(page, 'done');
    const expected = cli(['charges', '--strategy', strategy, '--seed', '7']);
    const summary = page.locator('[data-testid="summary"]');
    assert.match(await summary.textContent(), pattern(expected), strategy);
    assert.equal(await summary.getAttribute('data-tone'), 'harm', strategy);
    const [bg, harmBg] = await summary.evaluate((el) => {
      const probe = document.createElement('span');
      probe.style.background = 'var(--rll-harm-soft)';
      el.parentElement.appendChild(probe);
      const want = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return [getComputedStyle(el).backgroundColor, want];
    });
    assert.equal(bg, harmBg, `${strategy}: the verdict is on the harm colour, not the good one`);
  }
  await page.context().close();
});

test('1x playback takes the run\'s simulated time in wall time, within 2%', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?seed=1`);
  await waitForState(page, 'idle');
  await page.click('[data-speed="1x"]');
  const expected = cli(['charges', '--strategy', 'keyed', '--seed', '1']).elapsedMs;
  const wallMs = await page.evaluate(() => new Promise((resolve) => {
    const root = document.querySelector('[data-testid="app"]');
    const t0 = performance.now();
    document.querySelector('[data-strategy="keyed"]').click();
    const poll = () => (root.dataset.runState === 'done' ? resolve(performance.now() - t0) : requestAnimationFrame(poll));
    poll();
  }));
  const error = Math.abs(wallMs - expected) / expected;
  console.log(`1x keyed: simulated ${expected} ms, wall ${wallMs.toFixed(0)} ms, off by ${(error * 100).toFixed(2)}%`);
  assert.ok(error <= 0.02, `wall ${wallMs} ms vs simulated ${expected} ms`);
  await page.context().close();
});

const BAD_LINKS = [
  ['?strategy=yolo', /no strategy called 'yolo'/],
  ['?strategy=keyed&seed=abc', /seed 'abc' is not a whole number/],
  ['?strategy=keyed&seed=-1', /seed '-1' is not a whole number/],
  ['?strategy=keyed&seed=99999999999999999999999', /too large/],
  ['?strategy=keyed&speed=warp', /no speed called 'warp'/],
  ['?strategy=keyed&colour=red', /unknown parameter 'colour'/],
  // The run page's module reads neither a limits setting nor a sweep's keys: it says so.
  ['?strategy=keyed&burstGapMs=40', /Ignored 'burstGapMs': it is a limits experiment's setting, read with section=limits\./],
  ['?strategy=keyed&param=timeoutMs', /Ignored 'param': it is a parameter sweep's, which opens with view=sweep\./],
  ['?strategy=pool&strategy=naive', /appears more than once/],
  ['?strategy=%3Cimg%20src%3Dx%20onerror%3D%22window.__xss%3D1%22%3E', /no strategy called '<img src=x onerror="window.__xss=1">'/],
  ['?strategy=%3Cscript%3Ewindow.__xss%3D1%3C%2Fscript%3E', /no strategy called '<script>/],
];

for (const [query, message] of BAD_LINKS) {
  test(`a bad link is explained, not fatal: ${query}`, async () => {
    const page = await openPage(lab.browser);
    await page.goto(lab.server.base + query);
    await waitForState(page, 'done');
    const text = await page.textContent('[data-testid="query-problems"]');
    assert.match(text, message);
    assert.equal(await page.evaluate(() => window.__xss), undefined, 'no injected script ran');
    assert.equal(await page.locator('.rll img, .rll script').count(), 0, 'no injected element');
    assert.ok(Number((await readStats(page)).requests) > 0, 'the fallback run still ran');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('screenshots of a finished keyed run: desktop, phone, dark', async () => {
  const shots = [
    ['keyed-desktop.png', { viewport: { width: 1280, height: 900 } }],
    ['keyed-phone.png', { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true }],
    ['keyed-dark.png', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }],
  ];
  for (const [name, options] of shots) {
    const page = await openPage(lab.browser, options);
    await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=instant`);
    await waitForState(page, 'done');
    await page.screenshot({ path: screenshotPath(name), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name}: the page scrolls sideways by ${overflow}px`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
