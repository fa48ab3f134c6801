// Time you can hold (issue 32): stepping from a pause, arrows that pause a playing run
// first, Space from the playhead, the harm pointed at and named in a sentence whose times
// are the CLI's, the "pause at the first harm" switch, and a stage that stays put.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState, readStats, cli, screenshotPath } from './harness.mjs';

const lab = useLab(before, after);
const PROJECTOR = { width: 1366, height: 768 };

// Leaves the focus on no control, so Space is the page's, not a button's.
const blur = (page) => page.evaluate(() => document.activeElement?.blur());
const runState = (page) => page.getAttribute('[data-testid="app"]', 'data-run-state');
const playheadMs = async (page) => Number(await page.getAttribute('[data-testid="playhead"]', 'data-ms'));
const readout = async (page) => (await page.textContent('[data-testid="playhead-harm"]')).trim();

// The page's clock format (page::shared::format::clock_us).
function clock(us) {
  if (us < 999_500) return `${Math.floor((us + 500) / 1000)} ms`;
  const h = Math.floor((us + 5000) / 10000);
  return `${Math.floor(h / 100).toLocaleString('en-US')}.${String(h % 100).padStart(2, '0')} s`;
}

async function assertStatsAt(page, strategy, seed, ms) {
  const expected = cli(['charges', '--strategy', strategy, '--seed', seed, '--until-ms', String(ms)]);
  const shown = await readStats(page);
  assert.ok(Object.keys(shown).length >= 4, 'counters on the page');
  for (const [field, value] of Object.entries(shown)) {
    assert.equal(value, String(expected[field]), `${strategy} seed ${seed} at ${ms} ms: ${field}`);
  }
}

// Records every text the canvases draw, so a test can see the connector's words.
const RECORD_CANVAS_TEXT = () => {
  window.__canvasText = [];
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    window.__canvasText.push(String(text));
    return fill.call(this, text, ...rest);
  };
};

function inside(box, viewport, what) {
  assert.ok(box, `${what} is on the page`);
  assert.ok(box.y >= -1 && box.y + box.height <= viewport.height + 1, `${what} inside ${viewport.width}×${viewport.height}: ${JSON.stringify(box)}`);
}

test('paused mid-run, the arrows step between requests and the counters equal the CLI --until-ms then; an arrow while playing pauses first', async () => {
  const page = await openPage(lab.browser, { viewport: PROJECTOR });
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=1&speed=1x`);
  await waitForState(page, 'running');
  await page.waitForTimeout(1200);
  // Space pauses; the playhead is not there yet (the run is live).
  await page.keyboard.press(' ');
  await waitForState(page, 'paused');
  const clockAtPause = (await page.textContent('[data-testid="sim-clock"]')).trim();
  await page.keyboard.press('ArrowRight');
  assert.equal(await runState(page), 'paused', 'stepping keeps the run paused');
  const first = await playheadMs(page);
  assert.ok(first > 1000 && first < 5000, `stepped forward from the pause at ${clockAtPause}: ${first} ms`);
  await assertStatsAt(page, 'timeout-no-key', '1', first);
  assert.match(await readout(page), /^[\d.,]+ (ms|s): customer \d+'s (request|retry) is sent/);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  const fourth = await playheadMs(page);
  assert.ok(fourth > first, `${fourth} after ${first}`);
  await assertStatsAt(page, 'timeout-no-key', '1', fourth);
  await page.keyboard.press('ArrowLeft');
  const back = await playheadMs(page);
  assert.ok(back < fourth && back > first, `back to ${back}`);
  await assertStatsAt(page, 'timeout-no-key', '1', back);
  // Playing again, then an arrow: it pauses first, then steps.
  await page.keyboard.press(' ');
  assert.equal(await runState(page), 'running');
  await page.waitForTimeout(400);
  await page.keyboard.press('ArrowRight');
  assert.equal(await runState(page), 'paused', 'an arrow pauses a playing run');
  const after = await playheadMs(page);
  assert.ok(after > back, `played on from the playhead, then stepped: ${after} > ${back}`);
  await assertStatsAt(page, 'timeout-no-key', '1', after);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Shift+→ from a pause lands on the double charge the CLI names; the readout says both charges\' times and the timeline joins them', async () => {
  for (const viewport of [PROJECTOR, { width: 375, height: 812 }]) {
    const page = await openPage(lab.browser, { viewport });
    await page.addInitScript(RECORD_CANVAS_TEXT);
    await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=1&speed=1x`);
    // On a phone a linked run starts once its stage is in view.
    await page.locator('[data-testid="stage"]').scrollIntoViewIfNeeded();
    await waitForState(page, 'running');
    await page.waitForTimeout(500);
    await page.keyboard.press(' ');
    await waitForState(page, 'paused');
    let landed = null;
    for (let i = 0; i < 40 && landed !== 'double-charge'; i++) {
      await page.keyboard.press('Shift+ArrowRight');
      landed = await page.getAttribute('[data-testid="playhead-harm"]', 'data-harm');
    }
    assert.equal(landed, 'double-charge');
    assert.equal(await runState(page), 'paused');
    const story = cli(['charges', '--strategy', 'timeout-no-key', '--seed', '1', '--customer', 'double-charge']);
    const customer = await page.getAttribute('[data-testid="playhead-harm"]', 'data-customer');
    assert.equal(customer, String(story.customer));
    const charges = story.attempts.filter((a) => a.provider.charged).map((a) => a.provider.atUs).sort((a, b) => a - b);
    assert.equal(await readout(page), `${clock(charges[1])}: customer ${customer} is charged again; first charge at ${clock(charges[0])}`);
    assert.equal(await playheadMs(page), Math.floor(charges[1] / 1000));
    assert.equal((await readStats(page)).duplicates, '1', 'the first double charge, and only it');
    // The timeline points at it: that customer highlighted, the charges joined with words.
    assert.equal(await page.getAttribute('[data-testid="timeline"]', 'data-highlight'), customer);
    const drawn = await page.evaluate(() => window.__canvasText);
    assert.ok(drawn.includes('charged twice'), 'the connector is labelled');
    await page.locator('[data-testid="timeline"] canvas').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`paused-harm-${viewport.width}.png`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('Space on a finished run plays on from the playhead, and from the end plays it again', async () => {
  const page = await openPage(lab.browser, { viewport: PROJECTOR });
  await page.goto(`${lab.server.base}?strategy=keyed&seed=3&speed=instant`);
  await waitForState(page, 'done');
  const end = await playheadMs(page);
  for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowLeft');
  const from = await playheadMs(page);
  assert.ok(from > 0 && from < end, `${from} of ${end}`);
  await page.click('[data-speed="0.1x"]');
  await blur(page);
  // Three plays and pauses: each lands on a whole millisecond, the one the playhead
  // shows, so the counters are the CLI's at that millisecond.
  let now = from;
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press(' ');
    assert.equal(await runState(page), 'running');
    await page.waitForTimeout(300);
    await page.keyboard.press(' ');
    assert.equal(await runState(page), 'paused');
    const at = await playheadMs(page);
    assert.ok(at >= now && at < end, `went on from ${now}, not from 0: ${at}`);
    await assertStatsAt(page, 'keyed', '3', at);
    now = at;
  }
  // At the end, Space runs it again from the start.
  await page.locator('[data-testid="playhead"]').fill(String(end));
  await waitForState(page, 'done');
  await blur(page);
  await page.keyboard.press(' ');
  assert.equal(await runState(page), 'running');
  const requests = Number((await readStats(page)).requests);
  const whole = cli(['charges', '--strategy', 'keyed', '--seed', '3']);
  assert.ok(requests < whole.requests, `replays from the start: ${requests} of ${whole.requests}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('"Pause at the first harm" stops a playing run at the first double charge\'s instant', async () => {
  const page = await openPage(lab.browser, { viewport: PROJECTOR });
  await page.goto(`${lab.server.base}?seed=1&speed=10x`);
  await waitForState(page, 'idle');
  const box = page.locator('[data-testid="pause-at-harm"]');
  assert.equal(await box.isChecked(), false, 'off for a reader');
  await box.check();
  await page.keyboard.press('4');
  await blur(page);
  await page.keyboard.press(' ');
  await waitForState(page, 'paused', 20_000);
  const story = cli(['charges', '--strategy', 'timeout-no-key', '--seed', '1', '--customer', 'double-charge']);
  const second = story.attempts.filter((a) => a.provider.charged).map((a) => a.provider.atUs).sort((a, b) => a - b)[1];
  assert.equal(await page.getAttribute('[data-testid="playhead-harm"]', 'data-harm'), 'double-charge');
  assert.equal(await page.getAttribute('[data-testid="playhead-harm"]', 'data-customer'), String(story.customer));
  assert.equal(await playheadMs(page), Math.floor(second / 1000));
  // It stopped at that instant: the CLI has no extra charge a millisecond before, and the
  // page shows the one.
  const before = cli(['charges', '--strategy', 'timeout-no-key', '--seed', '1', '--until-ms', String(Math.floor(second / 1000))]);
  assert.equal(before.duplicates, 0);
  assert.equal((await readStats(page)).duplicates, '1');
  assert.match(await readout(page), /is charged again; first charge at /);
  // Resume: it plays on to the end, not stopping again.
  await page.keyboard.press(' ');
  await waitForState(page, 'done', 20_000);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('at 1366×768 ten steps keep the timeline on screen; the break button is off the plot', async () => {
  const page = await openPage(lab.browser, { viewport: PROJECTOR });
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=1&speed=1x`);
  await waitForState(page, 'running');
  await page.waitForTimeout(800);
  const canvas = page.locator('[data-testid="timeline"] canvas');
  const brk = page.locator('[data-testid="break-provider"]');
  assert.ok(await brk.isVisible(), 'the break button shows while a run plays');
  const [b, c] = [await brk.boundingBox(), await canvas.boundingBox()];
  const overlap = b.x < c.x + c.width && c.x < b.x + b.width && b.y < c.y + c.height && c.y < b.y + b.height;
  assert.equal(overlap, false, `break ${JSON.stringify(b)} off the plot ${JSON.stringify(c)}`);
  inside(c, PROJECTOR, 'the timeline while playing');
  const keys = ['ArrowRight', 'ArrowRight', 'Shift+ArrowRight', 'ArrowRight', 'ArrowLeft', 'Shift+ArrowRight', 'ArrowRight', 'Shift+ArrowLeft', 'ArrowRight', 'ArrowRight'];
  for (const key of keys) {
    await page.keyboard.press(key);
    inside(await canvas.boundingBox(), PROJECTOR, `the timeline after ${key}`);
  }
  // The step buttons too.
  for (let i = 0; i < 10; i++) {
    await page.click('[data-testid="next-request"]');
    inside(await canvas.boundingBox(), PROJECTOR, 'the timeline after a step button');
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('paused mid-run the summary says "not charged yet"; only a finished run says "never charged"', async () => {
  const page = await openPage(lab.browser, { viewport: PROJECTOR });
  await page.goto(`${lab.server.base}?strategy=naive&seed=7&speed=0.1x`);
  await waitForState(page, 'running');
  assert.equal((await page.textContent('[data-testid="summary"]')).trim(), '', 'silent while playing');
  await page.keyboard.press(' ');
  await waitForState(page, 'paused');
  const mid = await page.textContent('[data-testid="summary"]');
  assert.match(mid, /valid customers not charged yet/);
  assert.doesNotMatch(mid, /never/);
  await page.click('[data-speed="instant"]');
  await blur(page);
  await page.keyboard.press(' ');
  await waitForState(page, 'done');
  assert.match(await page.textContent('[data-testid="summary"]'), /valid customers never charged/);
  // Back at an instant before the end: not yet, again.
  await page.keyboard.press('Shift+ArrowLeft');
  assert.match(await page.textContent('[data-testid="summary"]'), /not charged yet|charged exactly once/);
  assert.doesNotMatch(await page.textContent('[data-testid="summary"]'), /never/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('? opens the keys over the stage, in view; Escape closes it and the focus goes back', async () => {
  const page = await openPage(lab.browser, { viewport: PROJECTOR });
  await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=instant`);
  await waitForState(page, 'done');
  await page.focus('[data-testid="next-request"]');
  await page.keyboard.press('?');
  const panel = page.locator('[data-testid="keys-panel"]');
  assert.ok(await panel.isVisible());
  const box = await panel.boundingBox();
  inside(box, PROJECTOR, 'the keys panel');
  assert.ok(box.x >= 0 && box.x + box.width <= PROJECTOR.width);
  await page.keyboard.press('Escape');
  assert.equal(await panel.isVisible(), false);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'next-request');
  await page.context().close();
});

test('the presenter\'s layout opens on timeout-no-key at 1×, pausing at the first harm, unless the link says otherwise', async () => {
  const page = await openPage(lab.browser, { viewport: PROJECTOR });
  await page.goto(`${lab.server.base}?present=1`);
  await page.waitForSelector('[data-strategy]');
  assert.equal(await page.getAttribute('[data-strategy="timeout-no-key"]', 'aria-pressed'), 'true');
  assert.equal(await page.getAttribute('[data-speed="1x"]', 'aria-pressed'), 'true');
  assert.equal(await page.locator('[data-testid="pause-at-harm"]').isChecked(), true);
  await page.goto(`${lab.server.base}?present=1&strategy=pool&speed=10x`);
  await page.waitForSelector('[data-strategy]');
  assert.equal(await page.getAttribute('[data-strategy="pool"]', 'aria-pressed'), 'true');
  assert.equal(await page.getAttribute('[data-speed="10x"]', 'aria-pressed'), 'true');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the open story\'s customer is highlighted on the timeline', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 900 } });
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=1&speed=instant&customer=28`);
  await waitForState(page, 'done');
  const figure = page.locator('[data-testid="timeline"]');
  assert.equal(await figure.getAttribute('data-highlight'), '28');
  const story = cli(['charges', '--strategy', 'timeout-no-key', '--seed', '1', '--customer', '28']);
  assert.equal(await figure.getAttribute('data-highlight-marks'), String(story.attempts.length));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
