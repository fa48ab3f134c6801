// Traffic that keeps arriving (issue 34): the outage links, the numbers against the CLI's,
// goodput over time on the run page, the matrix under steady traffic, and a steady run
// in the simulation worker. The page's arrivals are drawn by the same core as the CLI's,
// in WebAssembly: equal numbers are the determinism check.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState, cli, screenshotPath } from './harness.mjs';

const lab = useLab(before, after);

/** The page's link with its speed set to instant. */
function instant(href, base) {
  const url = new URL(href, base);
  url.searchParams.set('speed', 'instant');
  return url.href;
}

test('the outage links open steady traffic: the CLI\'s numbers, and goodput over time says who stays down', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  // Every text the canvases draw, so the timeline's limit labels can be read.
  await page.addInitScript(() => {
    window.__canvasText = [];
    const fill = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      window.__canvasText.push(String(text));
      return fill.call(this, text, ...rest);
    };
  });
  const drawn = () => page.evaluate(() => window.__canvasText);
  await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=instant`);
  await waitForState(page, 'done');
  assert.ok((await drawn()).includes('limit 10'), 'the in-flight limit, with no queue');
  assert.ok(!(await drawn()).some((t) => t.includes('queued')), 'no queue to name');
  // A batch run draws no goodput chart.
  assert.equal(await page.locator('[data-testid="flow-chart"] svg').count(), 0, 'no chart for a batch');
  const links = await page.$$eval('[data-testid="outage-links"] a', (as) => as.map((a) => ({ href: a.getAttribute('href'), text: a.textContent.trim() })));
  assert.equal(links.length, 3, JSON.stringify(links));
  const watched = links.filter((l) => /strategy=(keyed|budget)/.test(l.href));
  assert.equal(watched.length, 2, JSON.stringify(links));
  const seen = {};
  for (const link of watched) {
    const strategy = new URL(link.href, page.url()).searchParams.get('strategy');
    await page.goto(instant(link.href, page.url()));
    await waitForState(page, 'done', 60_000);
    const query = (await page.evaluate(() => location.search)).slice(1);
    assert.match(query, /traffic=steady/);
    const expected = cli(['charges', '--query', query]);
    const lastRun = await page.evaluate(() => window.rateLimitLab.lastRun);
    for (const [field, value] of Object.entries(expected)) {
      if (typeof value === 'number' && field !== 'seed') assert.equal(lastRun[field], value, `${strategy}: ${field}`);
    }
    const chart = page.locator('[data-testid="flow-chart"]');
    await chart.locator('svg').waitFor();
    const figure = await chart.evaluate((el) => {
      const f = el.querySelector('[data-goodput-last]') ?? el;
      return { ...f.dataset, text: el.textContent };
    });
    seen[strategy] = { expected, figure };
    const note = await page.textContent('[data-testid="incident-note"]');
    if (strategy === 'keyed') {
      assert.ok(expected.goodputRecoveryMs >= 100_000, `keyed stays down: ${expected.goodputRecoveryMs}`);
      assert.equal(Number(figure.goodputLast), 0, 'keyed: no goodput at the end of the arrivals');
      assert.equal(figure.recovered, 'false');
      assert.match(note, /never again learned of 90%/, note);
      await page.screenshot({ path: screenshotPath('traffic-keyed-stays-down.png'), fullPage: false });
      // Held at the run's last harm, while the provider stays down: its one worker busy,
      // the rest waiting in its queue (at most its 1,000), not "in flight" against the one.
      await page.keyboard.press('Shift+ArrowLeft');
      await page.waitForFunction(() => document.querySelector('[data-testid="playhead-harm"]')?.textContent.trim());
      const gauge = (await page.textContent('[data-slot="gauge-inflight"]')).trim();
      const m = gauge.match(/^1 \/ 1, ([\d,]+) queued$/);
      assert.ok(m, `the in-flight gauge: ${gauge}`);
      const queued = Number(m[1].replace(/,/g, ''));
      assert.ok(queued >= 1 && queued <= 1000, `queued: ${queued}`);
      // The timeline's in-flight band counts the queue too, and says so at its limit.
      assert.ok((await drawn()).includes('limit 1; above it, queued'), 'the queue named at the in-flight limit');
      // Held there, before the run's end, the incident's note says "not yet" and "so far",
      // never that the run ended.
      const held = await page.textContent('[data-testid="incident-note"]');
      assert.match(held, /has not yet learned of 90% of arriving customers' charges again for good, [\d.,]+ m?s after it ended \([\d,]+ requests per 100 customers so far\)/, held);
      assert.doesNotMatch(held, /run ended/, held);
    } else {
      assert.ok(expected.goodputRecoveryMs <= 5_000, `budget recovers: ${expected.goodputRecoveryMs}`);
      assert.ok(Number(figure.goodputLast) > 40, `budget: goodput at the end ${figure.goodputLast}`);
      assert.equal(figure.recovered, 'true');
      assert.match(note, /learned of 90% of arriving customers' charges again [\d.,]+ m?s after it ended, and went on doing so to the run's end/, note);
    }
    assert.equal(Number(figure.recoveryMs), expected.goodputRecoveryMs, `${strategy}: the chart's recovery is the stat`);
  }
  assert.deepEqual(Object.keys(seen).sort(), ['budget', 'keyed']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the outage names what its provider does with a 409 and while down; flipped to the door, keyed recovers and is told why', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 900 } });
  await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=instant`);
  await waitForState(page, 'done');
  assert.equal(await page.locator('[data-testid="model-note"]').count(), 0, 'no outage, no note');
  const links = await page.$$eval('[data-testid="outage-links"] a', (as) => as.map((a) => a.getAttribute('href')));
  const keyedLink = links.find((h) => /strategy=keyed/.test(h));
  await page.goto(instant(keyedLink, page.url()));
  await waitForState(page, 'done', 60_000);
  const model = page.locator('[data-testid="model-note"]');
  const said = (await model.textContent()).replace(/\s+/g, ' ');
  assert.match(said, /looks a key up only when a worker reaches the request: a 409 or a replayed answer waits its turn in the queue, then takes the worker 15 ms, as long as a charge/, said);
  assert.match(said, /While down, it queues every request like any other and works 15 ms on each before its 503/, said);
  assert.match(await page.textContent('[data-testid="incident-note"]'), /never again learned of 90%/);
  // The flip: keys looked up at the door. The page runs it, the CLI agrees, and both the
  // incident's note and the model's say what changed.
  await model.locator('[data-testid="flip-key-check"]').click();
  await page.waitForURL(/keyCheck=door/);
  const url = new URL(page.url());
  url.searchParams.set('speed', 'instant');
  await page.goto(url.href);
  await waitForState(page, 'done', 60_000);
  const query = (await page.evaluate(() => location.search)).slice(1);
  const expected = cli(['charges', '--query', query]);
  const lastRun = await page.evaluate(() => window.rateLimitLab.lastRun);
  for (const field of ['requests', 'charges', 'duplicates', 'replayed', 'inProgressConflicts', 'goodputRecoveryMs', 'goodputUpPercent', 'gaveUpCharged']) {
    assert.equal(lastRun[field], expected[field], field);
  }
  assert.ok(expected.goodputRecoveryMs <= 5_000, `keyed at the door recovers: ${expected.goodputRecoveryMs}`);
  const note = await page.textContent('[data-testid="incident-note"]');
  assert.match(note, /charges again [\d.,]+ m?s after it ended, and went on doing so to the run's end/, note);
  const why = (await page.textContent('[data-testid="model-note"]')).replace(/\s+/g, ' ');
  assert.match(why, /looks keys up at the door: a 409 or a replayed answer is given at once, with no worker and no place in the queue\. A retry of a charge still under way costs it nothing, so after the outage its queue holds only new charges, which is why a keyed client can recover here\./, why);
  assert.equal((await page.textContent('[data-testid="flip-key-check"]')).trim(), 'Look them up by the worker again');
  await page.locator('[data-testid="model-note"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('outage-keys-at-the-door.png') });
  // The other flip: a provider that fails fast while down.
  const fast = await page.getAttribute('[data-testid="flip-down-answer"]', 'href');
  assert.match(fast, /downAnswer=fast/);
  assert.match(fast, /keyCheck=door/, 'the other flip keeps this one');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('next month under the customer\'s id as the key: the charge lost, its story, and the 422, equal to the CLI', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 900 } });
  await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=instant`);
  await waitForState(page, 'done');
  const links = await page.$$eval('[data-testid="next-month-links"] a', (as) => as.map((a) => ({ href: a.getAttribute('href'), text: a.textContent.trim() })));
  assert.deepEqual(links.map((l) => l.text), ['this month', 'next month, a charge lost', 'next month with a key per charge']);
  const run = async (href) => {
    await page.goto(instant(href, page.url()));
    await waitForState(page, 'done', 60_000);
    const query = (await page.evaluate(() => location.search)).slice(1);
    // The run's numbers, not the story the query also opens.
    const run = new URLSearchParams(query);
    run.delete('customer');
    return { query, expected: cli(['charges', '--query', run.toString()]), lastRun: await page.evaluate(() => window.rateLimitLab.lastRun) };
  };
  // Next month, the first lost charge's story opens by itself.
  const lost = await run(links[1].href);
  for (const field of ['charges', 'customersCharged', 'replayed', 'keyReused', 'lostToReusedKey']) {
    assert.equal(lost.lastRun[field], lost.expected[field], field);
  }
  assert.ok(lost.expected.lostToReusedKey > 800, `${lost.expected.lostToReusedKey} lost`);
  assert.ok(lost.expected.keyReused >= 100, `${lost.expected.keyReused} refused`);
  const story = page.locator('[data-testid="story"]');
  await story.waitFor();
  const heading = (await story.locator('h3').textContent()).replace(/\s+/g, ' ');
  assert.match(heading, /charged 0 times, yet told the charge was made/, heading);
  assert.match(await story.textContent(), /replayed last month's stored 200 for the same key, no charge this month/);
  assert.equal(await page.locator('[data-scene="key-reused"]').count(), 1, 'the 422 scene is offered');
  assert.equal(await page.locator('[data-stat="lostToReusedKey"]').count() > 0, true);
  await story.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('next-month-lost-charge.png') });
  await page.click('[data-scene="key-reused"]');
  await page.waitForFunction(() => /422/.test(document.querySelector('[data-testid="story"]')?.textContent ?? ''));
  assert.match(await page.textContent('[data-testid="story"]'), /422: the key was stored with another body: refused/);
  // With a key per charge, next month is this month again: nothing lost, nothing refused.
  const kept = await run(links[2].href);
  assert.equal(kept.lastRun.lostToReusedKey, 0);
  assert.equal(kept.lastRun.keyReused, 0);
  assert.equal(kept.lastRun.customersCharged, kept.expected.customersCharged);
  assert.equal(await page.locator('[data-scene="lost-charge"]').count(), 0, 'no lost charge, no scene offered');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the matrix under steady traffic: every cell\'s goodput recovery equals the CLI\'s, with the goodput line drawn', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 900 } });
  const params = { seed: '2', customers: '300', traffic: 'steady', rate: '150' };
  await page.goto(`${lab.server.base}?view=matrix&${new URLSearchParams(params)}`);
  await waitForState(page, 'done', 60_000);
  const expected = cli(['charges', '--matrix', ...Object.entries(params).flatMap(([k, v]) => [`--${k}`, v])]);
  const shown = await page.$$eval('[data-cell]', (els) =>
    Object.fromEntries(els.map((e) => [e.dataset.cell, { charged: Number(e.dataset.charged), goodput: Number(e.dataset.goodputRecoveryMs), text: e.textContent }])),
  );
  assert.equal(Object.keys(shown).length, 50);
  for (const want of expected.cells) {
    const got = shown[`${want.strategy}/${want.incident}`];
    assert.ok(got, `${want.strategy}/${want.incident}`);
    assert.equal(got.charged, want.charged, `${want.strategy}/${want.incident}: charged`);
    assert.equal(got.goodput, want.stats.goodputRecoveryMs, `${want.strategy}/${want.incident}: goodput recovery`);
  }
  assert.equal(await page.locator('[data-map-cell] path.rll-matrix-goodput').count(), 50, 'a goodput line in every square');
  assert.match(await page.textContent('[data-testid="matrix-picture-legend"]'), /dashed line: charges the client learned of/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a steady run of a million customers in the simulation worker has the CLI\'s numbers', async () => {
  const page = await openPage(lab.browser);
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  const query = 'strategy=keyed&seed=5&customers=1000000&traffic=steady&rate=20000&speed=instant';
  await page.goto(`${lab.server.base}run.html?${query}`);
  await waitForState(page, 'done', 120_000);
  const expected = cli(['charges', '--strategy', 'keyed', '--seed', '5', '--customers', '1000000', '--traffic', 'steady', '--rate', '20000']);
  const lastRun = await page.evaluate(() => window.rateLimitLab.lastRun);
  for (const field of ['requests', 'charges', 'customersCharged', 'duplicates', 'rateLimited', 'overloaded', 'elapsedMs', 'waitP99Ms', 'requestsPer100Customers']) {
    assert.equal(lastRun[field], expected[field], field);
  }
  assert.deepEqual(workers.map((u) => u.split('/').pop()), ['sim-worker.js'], 'computed in the worker');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
