// The run page as a stage: the playhead shows the run at any instant with the CLI's
// `--until-ms` numbers, stepping lands on the harm the CLI names, and the keys do what
// the `?` list says, except inside a text field.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState, readStats, cli } from './harness.mjs';

const lab = useLab(before, after);

async function playheadMs(page) {
  return Number(await page.getAttribute('[data-testid="playhead"]', 'data-ms'));
}

async function assertStatsAt(page, strategy, seed, ms) {
  const expected = cli(['charges', '--strategy', strategy, '--seed', seed, '--until-ms', String(ms)]);
  const shown = await readStats(page);
  for (const [field, value] of Object.entries(shown)) {
    assert.equal(value, String(expected[field]), `${strategy} seed ${seed} at ${ms} ms: ${field}`);
  }
}

test('dragging or clicking the playhead shows the counters the CLI prints --until-ms then', async () => {
  const page = await openPage(lab.browser);
  // No slider before a run has finished: there is nothing to scrub yet.
  await page.goto(`${lab.server.base}?seed=3`);
  await page.waitForSelector('[data-strategy]');
  assert.equal(await page.locator('[data-testid="playhead"]').isVisible(), false);
  for (const [strategy, seed] of [['keyed', '3'], ['naive', '1'], ['timeout-no-key', '7']]) {
    await page.goto(`${lab.server.base}?strategy=${strategy}&seed=${seed}&speed=instant`);
    await waitForState(page, 'done');
    const slider = page.locator('[data-testid="playhead"]');
    await slider.scrollIntoViewIfNeeded();
    const box = await slider.boundingBox();
    // A click along the slider.
    await page.mouse.click(box.x + box.width * 0.4, box.y + box.height / 2);
    const clicked = await playheadMs(page);
    assert.ok(clicked > 0 && clicked < Number(await slider.getAttribute('max')), `${strategy}: ${clicked} of ${await slider.getAttribute('max')} ${JSON.stringify(box)}`);
    await assertStatsAt(page, strategy, seed, clicked);
    // A drag from near the start to a quarter of the way.
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const dragged = await playheadMs(page);
    assert.notEqual(dragged, clicked);
    await assertStatsAt(page, strategy, seed, dragged);
    // Back to the end: the final numbers.
    await slider.fill(await slider.getAttribute('max'));
    const whole = cli(['charges', '--strategy', strategy, '--seed', seed]);
    assert.equal((await readStats(page)).requests, String(whole.requests));
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the next harm on timeout-no-key is the first double charge, the customer the CLI names', async () => {
  const page = await openPage(lab.browser);
  for (const seed of ['1', '2']) {
    await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=${seed}&speed=instant`);
    await waitForState(page, 'done');
    await page.locator('[data-testid="playhead"]').fill('0');
    const story = cli(['charges', '--strategy', 'timeout-no-key', '--seed', seed, '--customer', 'double-charge']);
    let landed = null;
    for (let i = 0; i < 50 && landed !== 'double-charge'; i++) {
      await page.click('[data-testid="next-harm"]');
      landed = await page.getAttribute('[data-testid="playhead-harm"]', 'data-harm');
    }
    assert.equal(landed, 'double-charge', `seed ${seed}`);
    assert.equal(await page.getAttribute('[data-testid="playhead-harm"]', 'data-customer'), String(story.customer));
    assert.equal((await readStats(page)).duplicates, '1', 'the first double charge, and only it');
    // And back: the previous harm is earlier, or there is none.
    const at = await playheadMs(page);
    await page.click('[data-testid="prev-harm"]');
    assert.ok((await playheadMs(page)) <= at);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

async function pressed(page, selector) {
  return page.getAttribute(selector, 'aria-pressed');
}

async function runState(page) {
  return page.getAttribute('[data-testid="app"]', 'data-run-state');
}

test('Space, 1-6, arrows, comma and period, R and ? do what they say, and nothing in the seed field', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?seed=2&speed=1x`);
  await waitForState(page, 'idle');
  // 1-6 pick a strategy without starting it.
  await page.keyboard.press('4');
  assert.equal(await pressed(page, '[data-strategy="timeout-no-key"]'), 'true');
  assert.equal(await runState(page), 'idle');
  await page.keyboard.press('5');
  assert.equal(await pressed(page, '[data-strategy="keyed"]'), 'true');
  // , and . step the speed.
  await page.keyboard.press(',');
  assert.equal(await pressed(page, '[data-speed="0.1x"]'), 'true');
  await page.keyboard.press(',');
  assert.equal(await pressed(page, '[data-speed="0.01x"]'), 'true');
  await page.keyboard.press('.');
  await page.keyboard.press('.');
  assert.equal(await pressed(page, '[data-speed="1x"]'), 'true');
  // Space plays, pauses, resumes.
  await page.keyboard.press(' ');
  assert.equal(await runState(page), 'running');
  await page.keyboard.press(' ');
  assert.equal(await runState(page), 'paused');
  await page.keyboard.press(' ');
  assert.equal(await runState(page), 'running');
  // R runs again from the start.
  await page.keyboard.press('r');
  assert.equal(await runState(page), 'running');
  // Faster twice: instant, and the run finishes.
  await page.keyboard.press('.');
  await page.keyboard.press('.');
  assert.equal(await pressed(page, '[data-speed="instant"]'), 'true');
  await waitForState(page, 'done');
  // Arrows step between requests.
  const end = await playheadMs(page);
  await page.keyboard.press('ArrowLeft');
  const before = await playheadMs(page);
  assert.ok(before <= end);
  const requestsBefore = Number((await readStats(page)).requests);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  assert.equal(Number((await readStats(page)).requests), requestsBefore);
  // ? shows the keys.
  await page.keyboard.press('?');
  assert.ok(await page.isVisible('[data-testid="keys-panel"]'));
  await page.keyboard.press('?');
  assert.equal(await page.isVisible('[data-testid="keys-panel"]'), false);
  // On the playhead slider, ? still shows the keys.
  await page.locator('[data-testid="playhead"]').focus();
  await page.keyboard.press('?');
  assert.ok(await page.isVisible('[data-testid="keys-panel"]'));
  await page.click('[data-testid="keys-button"]');
  assert.equal(await page.isVisible('[data-testid="keys-panel"]'), false);
  // Inside the seed field, keys are typing.
  await page.click('[data-testid="seed"]');
  await page.keyboard.press('End');
  for (const key of ['1', ' ', ',', 'r', 'ArrowLeft']) await page.keyboard.press(key);
  assert.equal(await pressed(page, '[data-strategy="keyed"]'), 'true');
  assert.equal(await pressed(page, '[data-speed="instant"]'), 'true');
  assert.equal(await runState(page), 'done');
  assert.match(await page.inputValue('[data-testid="seed"]'), /^21 ,r$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
