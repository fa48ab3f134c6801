// The guided walk (issue 12 §5): six steps on the run page's stage, walked with the
// keyboard alone; each reveal's number is the CLI's; ← goes back; the opening's button
// and `?tour=1` open it; it fits a 375 px phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { useLab, openPage, waitForState, cli, readStats, screenshotPath } from './harness.mjs';

const lab = useLab(before, after);
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// Each step's strategy, and the CLI field its question asks about (crates/page/src/run/tour.rs).
const STEPS = [
  ['naive', 'customersCharged'],
  ['paced', 'gaveUp'],
  ['retry', 'customersCharged'],
  ['timeout-no-key', 'duplicates'],
  ['keyed', 'duplicates'],
  ['pool', 'inProgressConflicts'],
];

const focusIn = (page, sel) => page.evaluate((s) => !!document.activeElement?.closest(s), sel);
const focusIs = (page, sel) => page.evaluate((s) => !!document.activeElement?.matches(s), sel);

/** Presses Tab until the focus is on `sel` (at most `max` presses). */
async function tabTo(page, sel, max = 120) {
  for (let i = 0; i < max; i++) {
    if (await focusIs(page, sel)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${sel}`);
}

const step = (page) => page.getAttribute('[data-testid="tour"]', 'data-step');

test('the walk goes through six steps by keyboard alone; each reveal is the CLI\'s number; ← goes back', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await page.goto(`${lab.server.base}?tour=1&speed=instant`);
  await page.locator('[data-testid="tour"]').waitFor();
  // A linked step asks first: nothing runs.
  await waitForState(page, 'idle');
  for (const [i, [strategy, field]] of STEPS.entries()) {
    assert.equal(await step(page), String(i + 1));
    assert.equal(await page.getAttribute(`[data-strategy="${strategy}"]`, 'aria-pressed'), 'true', `step ${i + 1} sets ${strategy}`);
    const expected = cli(['charges', '--strategy', strategy, '--seed', '1']);
    // The choices are the run's: the right one among them.
    const values = await page.$$eval('[data-testid="tour-choice"]', (els) => els.map((e) => Number(e.dataset.value)));
    assert.ok(values.length >= 2 && values.includes(expected[field]), `${strategy}: ${values} holds ${expected[field]}`);
    // Tab to a choice (a different one each step, when there are three), answer with Enter or Space.
    await tabTo(page, '[data-testid="tour-choice"]');
    for (let k = 0; k < i % values.length; k++) await page.keyboard.press('Tab');
    assert.ok(await focusIs(page, '[data-testid="tour-choice"]'));
    await page.keyboard.press(i % 2 ? 'Space' : 'Enter');
    const reveal = page.locator('[data-testid="tour-reveal"]');
    await reveal.waitFor();
    await waitForState(page, 'done');
    assert.equal(Number(await reveal.getAttribute('data-answer')), expected[field], `${strategy}: the reveal's ${field}`);
    const text = await reveal.textContent();
    assert.ok(text.includes(expected[field].toLocaleString('en-US')), `${strategy}: '${text}' names ${expected[field]}`);
    // The moment is marked (that customer's story is open), and the playhead stays at
    // the end, so the clock and the counters read what the reveal says.
    const url = new URL(page.url());
    assert.ok(url.searchParams.get('customer'), `${strategy}: a story is open`);
    assert.equal(url.searchParams.get('step'), String(i + 1));
    await page.locator(`[data-testid="story"][data-customer="${url.searchParams.get('customer')}"]`).waitFor();
    const playhead = page.locator('[data-testid="playhead"]');
    assert.equal(await playhead.getAttribute('data-ms'), await playhead.getAttribute('max'), `${strategy}: the playhead at the end`);
    const counters = await readStats(page);
    if (field in counters) assert.equal(Number(counters[field].replace(/,/g, '')), expected[field], `${strategy}: the counter beside the reveal`);
    if (strategy === 'timeout-no-key') {
      assert.equal(await page.getAttribute('[data-testid="playhead-harm"]', 'data-harm'), 'double-charge');
      await page.screenshot({ path: screenshotPath('tour-1366.png') });
    }
    // The focus is still in the card: → moves to the next step.
    assert.ok(await focusIn(page, '[data-testid="tour"]'));
    if (i + 1 < STEPS.length) {
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction((n) => document.querySelector('[data-testid="tour"]')?.dataset.step === String(n), i + 2);
      await waitForState(page, 'idle');
      assert.equal(new URL(page.url()).searchParams.get('step'), String(i + 2));
    }
  }
  // ← goes back a step, and the stage's arrows did not step the playhead meanwhile.
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('[data-testid="tour"]')?.dataset.step === '5');
  assert.equal(await page.getAttribute('[data-strategy="keyed"]', 'aria-pressed'), 'true');
  // The browser's Back returns to the step before, as it does for strategies.
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('[data-testid="tour"]')?.dataset.step === '6');
  assert.equal(await page.getAttribute('[data-strategy="pool"]', 'aria-pressed'), 'true');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('outside the card the arrows are still the stage\'s, and Leave the walk leaves', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await page.goto(`${lab.server.base}?tour=1&step=4&speed=instant`);
  await page.locator('[data-testid="tour"][data-step="4"]').waitFor();
  await tabTo(page, '[data-testid="tour-choice"]');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="tour-reveal"]').waitFor();
  const at = await page.getAttribute('[data-testid="playhead"]', 'data-ms');
  // Focus back to the page: ← steps the playhead back from the end, not the walk.
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((ms) => document.querySelector('[data-testid="playhead"]')?.dataset.ms !== ms, at);
  assert.equal(await step(page), '4');
  await tabTo(page, '[data-testid="tour-leave"]');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="tour"]').waitFor({ state: 'detached' });
  assert.equal(new URL(page.url()).searchParams.get('tour'), null);
  // The rest of the page still works.
  await page.keyboard.press('2');
  await page.keyboard.press(' ');
  await waitForState(page, 'done');
  assert.equal(new URL(page.url()).searchParams.get('strategy'), 'paced');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the bare address opens on the opening story, not the walk; its button and ?tour=1 open the walk; a bad step is named', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await page.goto(lab.server.base);
  await page.locator('[data-testid="opening"]').waitFor();
  await waitForState(page, 'idle');
  assert.equal(await page.locator('[data-testid="tour"]').count(), 0, 'no walk until asked');
  await page.click('[data-testid="opening-walk"]');
  await page.locator('[data-testid="tour"][data-step="1"]').waitFor();
  assert.equal(await page.getAttribute('[data-strategy="naive"]', 'aria-pressed'), 'true');
  await page.click('[data-testid="tour-leave"]');
  await page.locator('[data-testid="tour"]').waitFor({ state: 'detached' });
  await page.goto(`${lab.server.base}?tour=1`);
  await page.locator('[data-testid="tour"][data-step="1"]').waitFor();
  await page.goto(`${lab.server.base}?tour=1&step=9`);
  await page.locator('[data-testid="tour"][data-step="1"]').waitFor();
  assert.match(await page.textContent('[data-testid="query-problems"]'), /step 9 is outside 1–6/);
  // A link with a query opens neither.
  const other = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await other.goto(`${lab.server.base}?seed=3`);
  await other.locator('[data-strategy]').first().waitFor();
  await other.waitForTimeout(300);
  assert.equal(await other.locator('[data-testid="tour"], [data-testid="opening"]').count(), 0);
  assert.deepEqual([...page.errors, ...other.errors], []);
  await other.context().close();
  await page.context().close();
});

test('at 375 px the walk card fits, with no horizontal overflow', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  await page.goto(`${lab.server.base}?tour=1&step=6&speed=instant`);
  const card = page.locator('[data-testid="tour"]');
  await card.waitFor();
  await page.locator('[data-testid="tour-choice"]').first().tap();
  await page.locator('[data-testid="tour-reveal"]').waitFor();
  await card.scrollIntoViewIfNeeded();
  const box = await card.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 375, `card inside 375 px: ${JSON.stringify(box)}`);
  for (const sel of ['[data-testid="tour-choice"]', '[data-testid="tour-next"]', '[data-testid="tour-leave"]']) {
    for (const b of await page.locator(sel).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
      assert.ok(b.left >= 0 && b.right <= 375, `${sel} inside 375 px: ${JSON.stringify(b)}`);
    }
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal overflow');
  await page.screenshot({ path: screenshotPath('tour-375.png') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const scheme of ['light', 'dark']) {
  test(`accessibility: no serious violations in the walk, asking and revealed (${scheme})`, async () => {
    const page = await openPage(lab.browser, { colorScheme: scheme, viewport: { width: 1200, height: 900 } });
    await page.goto(`${lab.server.base}?tour=1&step=4&speed=instant`);
    await page.locator('[data-testid="tour-choice"]').first().waitFor();
    await page.evaluate(AXE);
    const serious = async () => (await page.evaluate(() => window.axe.run(document.querySelector('[data-testid="tour"]'), { resultTypes: ['violations'] })))
      .violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    assert.deepEqual(await serious(), []);
    await page.locator('[data-testid="tour-choice"]').nth(1).click();
    await page.locator('[data-testid="tour-reveal"]').waitFor();
    // Past the buttons' 0.15 s colour transition, so axe reads the colours that stay.
    await page.waitForTimeout(400);
    assert.deepEqual(await serious(), []);
    await page.context().close();
  });
}

test('on a phone, step 1 puts the chart above its verdict, and its clock agrees with its counters', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  await page.goto(`${lab.server.base}?tour=1&step=1&speed=instant`);
  await page.locator('[data-testid="tour-choice"]').first().tap();
  const reveal = page.locator('[data-testid="tour-reveal"]');
  await reveal.waitFor();
  await waitForState(page, 'done');
  const [chart, card] = await Promise.all([
    page.locator('[data-testid="timeline"]').boundingBox(),
    page.locator('[data-testid="tour"]').boundingBox(),
  ]);
  assert.ok(chart.y + chart.height <= card.y, `the chart (${chart.y}) stands above the walk's card (${card.y})`);
  // The playhead at the run's end: the clock is the run's length, every customer has
  // finished, and the counter beside the reveal is the reveal's number.
  const expected = cli(['charges', '--strategy', 'naive', '--seed', '1']);
  assert.equal(await page.textContent('[data-testid="sim-clock"]'), `${expected.elapsedMs} ms`, 'the run\'s end, not the instant of the storm');
  assert.match(await page.textContent('.rll-gauges'), /Client done with 1,000 \/ 1,000/);
  const stats = await readStats(page);
  assert.equal(Number(stats.customersCharged.replace(/,/g, '')), expected.customersCharged);
  assert.match(await reveal.textContent(), new RegExp(`${expected.customersCharged} customers charged`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
