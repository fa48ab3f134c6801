// The matrix page: ten strategies against five incidents from one seed, in a few frames,
// each cell equal to `ratelab charges --matrix --json` and linked to its run (issue 14).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState, cli, footerArgs, screenshotPath } from './harness.mjs';

const lab = useLab(before, after);

test('every matrix cell equals the CLI\'s, and opens that run', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 900 } });
  await page.goto(`${lab.server.base}?view=matrix&seed=3`);
  await waitForState(page, 'done', 60_000);
  const expected = cli(['charges', '--matrix', '--seed', '3']);
  assert.equal(expected.cells.length, 50);
  const shown = await page.$$eval('[data-cell]', (els) =>
    els.map((e) => ({
      cell: e.dataset.cell,
      charged: Number(e.dataset.charged),
      duplicates: Number(e.dataset.duplicates),
      per100: Number(e.dataset.per_100 ?? e.getAttribute('data-per-100')),
      recoveryMs: Number(e.dataset.recoveryMs),
      harm: e.dataset.harm === 'true',
    })),
  );
  assert.equal(shown.length, 50, 'fifty cells');
  for (const want of expected.cells) {
    const got = shown.find((c) => c.cell === `${want.strategy}/${want.incident}`);
    assert.ok(got, `${want.strategy}/${want.incident} is on the page`);
    assert.equal(got.charged, want.charged, `${got.cell}: charged`);
    assert.equal(got.duplicates, want.duplicates, `${got.cell}: duplicates`);
    assert.equal(got.per100, Math.round(want.requestsPerCharge * 100), `${got.cell}: requests per charge`);
    assert.equal(got.recoveryMs, want.recoveryMs, `${got.cell}: recovery`);
    assert.equal(got.harm, want.harm, `${got.cell}: harm`);
  }
  // What to ship: seven practices, each linking to the run (on this seed) that shows why.
  const ship = await page.$$eval('[data-testid="ship"] a', (as) => as.map((a) => a.getAttribute('href')));
  assert.equal(ship.length, 7);
  assert.ok(ship.every((h) => /seed=3/.test(h)), ship.join(' '));
  assert.ok(ship.some((h) => /strategy=headers/.test(h) && /incident=down/.test(h)), ship.join(' '));
  // The footer's command is the CLI's matrix on the same seed.
  assert.deepEqual(await footerArgs(page), ['charges', '--matrix', '--seed', '3']);
  await page.screenshot({ path: screenshotPath('matrix-1366.png'), fullPage: true });
  // A cell opens its run on the run page, with the same numbers.
  await page.click('[data-cell="pool/down"] a');
  await page.waitForURL(/strategy=pool/);
  assert.match(page.url(), /incident=down/);
  assert.match(page.url(), /seed=3/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the matrix shows its progress and fits a phone by scrolling inside its box', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 375, height: 740 } });
  await page.goto(`${lab.server.base}?view=matrix&seed=1&customers=200`);
  await waitForState(page, 'done', 60_000);
  assert.equal((await page.textContent('[data-testid="matrix-progress"]')).trim(), '50 of 50 runs');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page itself does not scroll sideways (${overflow} px)`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
