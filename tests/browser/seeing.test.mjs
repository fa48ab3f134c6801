// Seeing it: the compare table and the sweep against the CLI, a customer's story
// against the record, the grid, the canvases' pixel ratio, and screenshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState, readStats, readResults, cli, screenshotPath } from './harness.mjs';

const lab = useLab(before, after);

test('the compare table equals the CLI\'s --all for that seed', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1280, height: 900 } });
  for (const seed of ['7', '42']) {
    await page.goto(`${lab.server.base}?view=compare&seed=${seed}`);
    await page.waitForSelector(`[data-testid="compare"][data-state="done"][data-seed="${seed}"]`);
    const shown = await readResults(page, '[data-testid="compare"]');
    const expected = cli(['charges', '--all', '--seed', seed]);
    for (const run of expected) {
      for (const [field, value] of Object.entries(run)) {
        if (['strategy', 'seed', 'customers'].includes(field)) continue;
        assert.equal(shown[`compare.${run.strategy}.${field}`], String(value), `seed ${seed} ${run.strategy}.${field}`);
      }
      const perCharge = run.charges ? (Math.round((run.requests * 100) / run.charges) / 100).toFixed(2) : '—';
      assert.equal(shown[`compare.${run.strategy}.requestsPerCharge`], perCharge);
    }
  }
  await page.screenshot({ path: screenshotPath('compare.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the sweep\'s min, median and max equal the CLI\'s', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?view=sweep&strategy=timeout-no-key&seeds=60`);
  await page.waitForSelector('[data-testid="sweep"][data-state="done"]', { timeout: 60_000 });
  const shown = await readResults(page, '[data-testid="sweep"]');
  const expected = cli(['charges', '--strategy', 'timeout-no-key', '--seeds', '1..=60']).fields;
  for (const field of ['customersCharged', 'duplicates', 'requests', 'rateLimited', 'overloaded', 'inProgressConflicts', 'maxInflight', 'elapsedMs']) {
    for (const stat of ['min', 'median', 'max']) {
      assert.equal(shown[`sweep.timeout-no-key.${field}.${stat}`], String(expected[field][stat]), `${field}.${stat}`);
    }
  }
  const d = expected.duplicates;
  assert.match(shown['sweep.timeout-no-key.sentence'], new RegExp(`${d.min}–${d.max} extra charges \\(median ${d.median}\\)`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a big sweep can be cancelled and the page stays responsive', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?view=sweep&strategy=all&seeds=10000`);
  await page.waitForSelector('[data-testid="sweep"][data-state="running"]');
  await page.waitForTimeout(300);
  // A frame must come round quickly: the sweep yields to the browser.
  const frameMs = await page.evaluate(() => new Promise((r) => { const t = performance.now(); requestAnimationFrame(() => r(performance.now() - t)); }));
  assert.ok(frameMs < 200, `a frame took ${frameMs} ms during the sweep`);
  await page.click('[data-testid="sweep-cancel"]');
  await page.waitForSelector('[data-testid="sweep"][data-state="cancelled"]');
  assert.match(await page.textContent('[data-testid="sweep"] [role="status"]'), /Cancelled after/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

async function readStory(page) {
  return page.$$eval('[data-testid="story"] tr[data-attempt]', (rows) => rows.map((r) => ({ ...r.dataset })));
}

function expectedRows(story) {
  return story.attempts.map((a) => {
    const c = a.client;
    const p = a.provider;
    return {
      attempt: String(a.attempt),
      sentAtUs: String(a.sentAtUs),
      key: a.key ?? '',
      clientKind: c.kind,
      clientStatus: c.kind === 'answered' ? String(c.status) : '',
      clientAtUs: c.kind === 'waiting' ? '' : String(c.atUs),
      providerKind: p.kind,
      providerStatus: p.kind === 'processing' ? '' : String(p.status),
      providerAtUs: p.kind === 'refused' ? '' : String(p.kind === 'processing' ? p.untilUs : p.atUs),
      charged: String(p.kind === 'finished' && p.charged),
    };
  });
}

test('a customer\'s story matches the core\'s record, from the URL and from a scene link', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=1&speed=instant&customer=28`);
  await waitForState(page, 'done');
  await page.waitForSelector('[data-testid="story"][data-customer="28"]');
  assert.deepEqual(await readStory(page), expectedRows(cli(['charges', '--strategy', 'timeout-no-key', '--seed', '1', '--customer', '28'])));
  // The scene the whole article is about, one click away.
  await page.goto(`${lab.server.base}?strategy=pool&seed=3&speed=instant`);
  await waitForState(page, 'done');
  await page.click('[data-scene="conflict"]');
  const story = cli(['charges', '--strategy', 'pool', '--seed', '3', '--customer', 'conflict']);
  await page.waitForSelector(`[data-testid="story"][data-customer="${story.customer}"]`);
  assert.deepEqual(await readStory(page), expectedRows(story));
  const texts = await page.$$eval('[data-testid="story"] td', (tds) => tds.map((t) => t.textContent));
  assert.ok(texts.some((t) => /409/.test(t)), 'the story shows the 409');
  await page.screenshot({ path: screenshotPath('story-pool-409.png'), fullPage: false });
  // "Customer #": a number outside the run is refused in words; one inside opens its story.
  const refusal = page.locator('.rll-story [role="alert"]');
  assert.equal(await refusal.isVisible(), false);
  await page.fill('#rll-goto', '1001');
  await page.press('#rll-goto', 'Enter');
  assert.equal((await refusal.textContent()).trim(), 'Enter a customer number from 1 to 1,000.');
  await page.fill('#rll-goto', '7');
  await page.press('#rll-goto', 'Enter');
  await page.waitForSelector('[data-testid="story"][data-customer="7"]');
  assert.equal(await refusal.isVisible(), false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the grid has a cell per customer, counts that add up, and works from the keyboard', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=2&speed=instant`);
  await waitForState(page, 'done');
  const grid = await readResults(page, '.rll-grid-wrap');
  const stats = await readStats(page);
  const total = Object.values(grid).reduce((a, b) => a + Number(b), 0);
  assert.equal(total, 1000, 'one cell per customer');
  assert.equal(Number(grid['grid.declined']), Number(stats.declined));
  assert.ok(Number(grid['grid.charged-twice']) > 0 && Number(grid['grid.charged-twice']) <= Number(stats.duplicates));
  // Keyboard: focus the grid (customer 1), move right twice, open it.
  await page.focus('[data-testid="grid"]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('[data-testid="grid"]', 'data-focus'), '3');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid="story"][data-customer="3"]');
  // A click on the second cell of the first row opens customer 2.
  await page.click('[data-testid="grid"]', { position: { x: 15 + 6, y: 6 } });
  await page.waitForSelector('[data-testid="story"][data-customer="2"]');
  await page.locator('.rll-grid-wrap').screenshot({ path: screenshotPath('grid.png') });
  await page.locator('[data-testid="timeline"]').screenshot({ path: screenshotPath('timeline.png') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the timeline and the grid are drawn for the device\'s pixel ratio after a 10× playback, and again when the window narrows', async () => {
  // The draw's cost is measured by scripts/bench.sh (tests/browser/bench.mjs), not here.
  const page = await openPage(lab.browser, { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 2 });
  await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=10x`);
  await waitForState(page, 'done', 60_000);
  // The grid's section is laid out only near the screen (`content-visibility: auto`), and
  // the grid is measured when it is: brought into view first, as a reader brings it, and
  // read once it has been measured and drawn for its width (the assertions below say
  // what that must be; a grid never sized fails them after the wait).
  await page.evaluate(() => document.querySelector('[data-testid="grid"]').scrollIntoView());
  await page
    .waitForFunction(() => {
      const c = document.querySelector('[data-testid="grid"]');
      return c.clientHeight === Math.ceil(1000 / Math.floor(c.clientWidth / 15)) * 15 && c.width === Math.round(c.clientWidth * 2);
    }, null, { timeout: 5_000 })
    .catch(() => {});
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const canvases = await page.evaluate(() =>
    ['[data-testid="timeline"] canvas', '[data-testid="grid"]'].map((sel) => {
      const c = document.querySelector(sel);
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      let inked = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked++;
      return { width: c.width, height: c.height, cssWidth: c.clientWidth, cssHeight: c.clientHeight, inked };
    }),
  );
  const [timeline, grid] = canvases;
  // The timeline: its CSS width, and the full layout's height (412 px), at 2 pixels each.
  assert.equal(timeline.width, Math.round(timeline.cssWidth * 2), 'timeline width');
  assert.equal(timeline.height, 412 * 2, 'timeline height');
  assert.ok(timeline.inked > timeline.width * timeline.height * 0.01, `the timeline has marks (${timeline.inked} pixels)`);
  // The grid: 15 px a cell, as many rows as 1,000 customers need, and its CSS height set to them.
  const rows = Math.ceil(1000 / Math.floor(grid.cssWidth / 15));
  assert.equal(grid.cssHeight, rows * 15, 'grid CSS height');
  assert.equal(grid.width, Math.round(grid.cssWidth * 2), 'grid width');
  assert.equal(grid.height, rows * 15 * 2, 'grid height');
  assert.ok(grid.inked > 1000 * 12 * 12 * 4 * 0.5, `the grid has its cells (${grid.inked} pixels)`);
  // A narrower window: both are measured and drawn again at their new width. The grid's
  // section is laid out only near the screen (`content-visibility: auto`), so it is
  // measured again when the reader comes to it: it is brought into view here.
  await page.setViewportSize({ width: 800, height: 900 });
  await page.evaluate(() => document.querySelector('[data-testid="grid"]').scrollIntoView());
  await page.waitForFunction(
    ([before]) =>
      ['[data-testid="timeline"] canvas', '[data-testid="grid"]'].every((sel) => {
        const c = document.querySelector(sel);
        return c.clientWidth < before && c.width === Math.round(c.clientWidth * 2);
      }),
    [timeline.cssWidth],
  );
  const narrow = await page.evaluate(() => {
    const c = document.querySelector('[data-testid="grid"]');
    return { cssWidth: c.clientWidth, cssHeight: c.clientHeight };
  });
  assert.equal(narrow.cssHeight, Math.ceil(1000 / Math.floor(narrow.cssWidth / 15)) * 15, 'the grid has the rows its new width needs');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
