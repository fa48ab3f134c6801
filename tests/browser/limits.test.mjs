// The limits section in a real browser: every result cell equals the CLI's, the
// published headers, and a bad experiment name (the header reader has its own file,
// header-reader.test.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, readResults, cli, assertAddress } from './harness.mjs';

const EXPERIMENTS = ['burst', 'units', 'clients', 'neighbour', 'memory', 'herd'];

const lab = useLab(before, after);

async function waitForExperiment(page, name) {
  await page.waitForSelector(`[data-testid="limits"][data-state="done"][data-experiment="${name}"]`);
}

for (const seed of ['1', '7']) {
  test(`every experiment's cells equal the CLI's, seed ${seed}`, async () => {
    const page = await openPage(lab.browser);
    for (const name of EXPERIMENTS) {
      await page.goto(`${lab.server.base}?section=limits&experiment=${name}&seed=${seed}`);
      await waitForExperiment(page, name);
      const shown = await readResults(page, '[data-testid="limits"]');
      const expected = cli(['limits', name, '--seed', seed]).cells;
      assert.ok(Object.keys(expected).length > 5, `${name} has cells`);
      assert.deepEqual(shown, expected, `${name} seed ${seed}`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('on a 375 px phone and at 1366 px, no experiment button breaks a word of its name', async () => {
  for (const width of [375, 1366]) {
    const page = await openPage(lab.browser, { viewport: { width, height: 800 } });
    await page.goto(`${lab.server.base}?section=limits`);
    await page.waitForSelector('[data-testid="limits"][data-state="idle"]');
    // A word laid out on more than one line has more than one box.
    const cut = await page.$$eval('button[data-experiment] span:last-child', (labels) =>
      labels.flatMap((label) => {
        const text = label.firstChild;
        const broken = [];
        for (const m of text.textContent.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, m.index);
          range.setEnd(text, m.index + m[0].length);
          if (range.getClientRects().length > 1) broken.push(m[0]);
        }
        return broken;
      }),
    );
    assert.deepEqual(cut, [], `at ${width} px`);
    await page.context().close();
  }
});

test('the experiment buttons switch experiments and the URL follows', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?section=limits`);
  await page.waitForSelector('[data-testid="limits"][data-state="idle"]');
  for (const name of EXPERIMENTS) {
    await page.click(`[data-experiment="${name}"]`);
    await waitForExperiment(page, name);
    await assertAddress(page, { section: 'limits', experiment: name });
    assert.equal(await page.getAttribute(`button[data-experiment="${name}"]`, 'aria-pressed'), 'true');
  }
  // The burst: the fixed window lets twice the limit through, the others do not.
  await page.click('[data-experiment="burst"]');
  const cells = await readResults(page, '[data-testid="limits"]');
  assert.equal(Number(cells['burst.fixedAccepted']), 2 * Number(cells['burst.limit']));
  assert.equal(cells['burst.slidingAccepted'], cells['burst.limit']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the limits page links to the headers page, with its seed', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?section=limits&seed=7`);
  await page.click('[data-testid="limits"] a[href*="section=headers"]');
  await page.waitForSelector('[data-testid="response-headers"] [data-header]');
  await assertAddress(page, { section: 'headers', seed: '7' });
  assert.equal(await page.getAttribute('[data-section="headers"]', 'aria-current'), 'page');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the published headers are the CLI\'s, and only the 429 says Retry-After', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?section=headers`);
  await page.waitForSelector('[data-testid="response-headers"] [data-status] [data-header]');
  const expected = cli(['limits', 'headers']);
  for (const sample of expected) {
    const lines = await page.$$eval(`[data-testid="response-headers"] [data-status="${sample.status}"] [data-header]`,
      (els) => els.map((e) => e.textContent.trim()));
    assert.deepEqual(lines, sample.headers.map(([k, v]) => `${k}: ${v}`), `status ${sample.status}`);
  }
  const ok = await page.$$eval('[data-status="200"] [data-header="Retry-After"]', (els) => els.length);
  const refused = await page.$$eval('[data-status="429"] [data-header="Retry-After"]', (els) => els.length);
  assert.deepEqual([ok, refused], [0, 1]);
  await page.context().close();
});

test('an unknown experiment is explained, not fatal', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?section=limits&experiment=<b>boom</b>`);
  const text = await page.textContent('[data-testid="query-problems"]');
  assert.match(text, /no experiment called '<b>boom<\/b>'/);
  assert.equal(await page.locator('.rll b').count(), 0, 'no injected element');
  await page.waitForSelector('[data-testid="limits"][data-state="idle"]');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

