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
      overlap: e.dataset.overlap,
      harms: [...e.querySelectorAll('[data-harm-field]')].map((h) => ({
        field: h.dataset.harmField,
        count: Number(h.dataset.count),
        text: h.textContent.trim(),
      })),
      text: e.textContent,
    })),
  );
  // The heatmap: a square per run, coloured like its cell, each with its timeline.
  const squares = await page.$$eval('[data-map-cell]', (els) =>
    els.map((e) => ({ cell: e.dataset.mapCell, level: e.className, band: e.querySelector('svg rect') !== null, bars: e.querySelector('svg path').getAttribute('d') })),
  );
  assert.equal(squares.length, 50, 'fifty squares');
  assert.equal(await page.getAttribute('[data-testid="matrix-map"]', 'aria-hidden'), 'true', 'the words are in the table');
  const levels = await page.$$eval('[data-cell]', (els) => Object.fromEntries(els.map((e) => [e.dataset.cell, e.className])));
  assert.equal(shown.length, 50, 'fifty cells');
  for (const want of expected.cells) {
    const got = shown.find((c) => c.cell === `${want.strategy}/${want.incident}`);
    assert.ok(got, `${want.strategy}/${want.incident} is on the page`);
    assert.equal(got.charged, want.charged, `${got.cell}: charged`);
    assert.equal(got.duplicates, want.duplicates, `${got.cell}: duplicates`);
    assert.equal(got.per100, Math.round(want.requestsPerCharge * 100), `${got.cell}: requests per charge`);
    assert.equal(got.recoveryMs, want.recoveryMs, `${got.cell}: recovery`);
    assert.equal(got.harm, want.harm, `${got.cell}: harm`);
    // Each harm named with the CLI's count, and only the CLI's harms.
    assert.deepEqual(got.harms.map((h) => h.field), want.harms, `${got.cell}: harm fields`);
    for (const h of got.harms) {
      assert.equal(h.count, want.stats[h.field], `${got.cell}: ${h.field}`);
      assert.ok(h.text.endsWith(`: ${want.stats[h.field].toLocaleString('en-US')}`), `${got.cell}: ${h.text}`);
    }
    assert.equal(got.text.includes('no harm'), want.harms.length === 0, `${got.cell}: no harm`);
    // Where the client stood against the incident, from the CLI's own times: a client done
    // before the incident began never says it recovered.
    const start = expected.incidentStartMs;
    const end = start + expected.incidentLengthMs;
    const overlap =
      want.incident === 'none' ? 'none' : want.elapsedMs < start ? 'before' : want.elapsedMs < end ? 'during' : 'past';
    assert.equal(got.overlap, overlap, `${got.cell}: overlap (finished at ${want.elapsedMs} ms)`);
    assert.equal(got.text.includes('finished before the incident'), overlap === 'before', `${got.cell}: ${got.text}`);
    assert.equal(got.text.includes('finished during the incident'), overlap === 'during', `${got.cell}: ${got.text}`);
    assert.equal(got.text.includes('recovered'), overlap === 'past', `${got.cell}: ${got.text}`);
    // Its square: the same colour, the incident's band in every column but the calm one,
    // and bars wherever the run sent anything.
    const square = squares.find((q) => q.cell === got.cell);
    assert.equal(square.level.match(/rll-harm-\d/)[0], levels[got.cell].match(/rll-harm-\d/)[0], `${got.cell}: colour`);
    assert.equal(square.band, want.incident !== 'none', `${got.cell}: the incident's band`);
    assert.ok(square.bars.startsWith('M0 100V'), `${got.cell}: the first requests at 0 (${square.bars.slice(0, 20)})`);
  }
  // Naive is over in milliseconds: before the incident in every column.
  for (const i of ['errors', 'slow', 'down', 'capacity']) {
    assert.equal(shown.find((c) => c.cell === `naive/${i}`).overlap, 'before', `naive/${i}`);
  }
  // The legend says in words what the colours and the pictures are.
  const legend = await page.textContent('[data-testid="matrix-legend"]');
  for (const words of ['no harm', 'one kind of harm', 'two kinds of harm', 'three kinds or more']) {
    assert.ok(legend.includes(words), legend);
  }
  assert.match(await page.textContent('[data-testid="matrix-picture-legend"]'), /band: the incident/);
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
  // 200 customers: paced finishes before the incident at 4 s, and its cells say so.
  const paced = await page.$$eval('[data-cell^="paced/"]', (els) => els.map((e) => [e.dataset.overlap, e.dataset.elapsedMs]));
  assert.ok(paced.slice(1).every(([o, ms]) => o === 'before' && Number(ms) < 4000), JSON.stringify(paced));
  const legendBox = await page.$eval('[data-testid="matrix-legend"]', (e) => e.getBoundingClientRect().right);
  assert.ok(legendBox <= 375, `the legend fits the phone (${legendBox})`);
  const mapBox = await page.$eval('[data-testid="matrix-map"]', (e) => e.getBoundingClientRect().right);
  assert.ok(mapBox <= 375, `the heatmap fits the phone without scrolling (${mapBox})`);
  await page.screenshot({ path: screenshotPath('matrix-375.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
