// The stage: on a projector the controls, the clock, the timeline and the counters that
// matter share the screen while a run plays; on a phone a linked run opens on its
// verdict and plays when its stage scrolls into view; chart text is never under 12 CSS
// px; the open story (also by scene name) is in the URL, and Back returns to the
// strategy before. Plus the walk-through's fixes on the run page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState, cli, cliText } from './harness.mjs';

const lab = useLab(before, after);

/** Records the CSS size of every text drawn on a canvas: the font's px, times the
 * canvas's scale from its drawing to its box on the page. */
const RECORD_CANVAS_TEXT = () => {
  window.__canvasText = [];
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
    const px = parseFloat(/(\d+(?:\.\d+)?)px/.exec(this.font)?.[1] ?? '0');
    const t = this.getTransform();
    const c = this.canvas;
    const css = c.clientWidth > 0 ? px * t.a * (c.clientWidth / c.width) : px;
    window.__canvasText.push({ text: String(text), css });
    return fill.call(this, text, x, y, ...rest);
  };
};

function inside(box, viewport, what) {
  assert.ok(box, `${what} is on the page`);
  assert.ok(box.y >= -1 && box.y + box.height <= viewport.height + 1 && box.x >= 0 && box.x + box.width <= viewport.width,
    `${what} inside ${viewport.width}×${viewport.height}: ${JSON.stringify(box)}`);
}

test('at 1366×768, play/pause, the clock, the timeline and the key counters share the screen while a run plays', async () => {
  const viewport = { width: 1366, height: 768 };
  const page = await openPage(lab.browser, { viewport });
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=7&speed=1x`);
  await waitForState(page, 'running');
  await page.waitForTimeout(700);
  for (const [sel, what] of [
    ['[data-testid="pause"]', 'pause'],
    ['[data-testid="sim-clock"]', 'the clock'],
    ['[data-testid="timeline"] canvas', 'the timeline'],
    ['[data-testid="key-counters"]', 'the key counters'],
    ['[data-strategy="naive"]', 'the strategy buttons'],
    ['[data-speed="0.1x"]', 'the speeds'],
  ]) {
    inside(await page.locator(sel).first().boundingBox(), viewport, what);
  }
  assert.deepEqual(
    await page.locator('[data-testid="key-counters"] [data-stat]').evaluateAll((els) => els.map((e) => e.dataset.stat)),
    ['customersCharged', 'duplicates', 'requests', 'elapsedMs'],
  );
  // Still running: the picture was in view while it played.
  assert.equal(await page.getAttribute('[data-testid="app"]', 'data-run-state'), 'running');
  // Pressing Run on another strategy keeps the stage where it is.
  await page.keyboard.press('Space');
  await waitForState(page, 'paused');
  await page.screenshot({ path: 'target/screenshots/stage-1366.png' });
  await page.context().close();
});

test('on a 375 px phone, a linked run opens on its verdict and plays only once its stage is in view', async () => {
  const viewport = { width: 375, height: 740 };
  const page = await openPage(lab.browser, { viewport, isMobile: true, hasTouch: true });
  // Where the verdict and its picture are in the first frame that shows the buttons: the
  // picture is drawn a frame later, and nothing may move when it is.
  await page.addInitScript(() => {
    const frame = () => {
      const verdict = document.querySelector('[data-testid="verdict"]');
      const canvas = document.querySelector('[data-testid="verdict"] canvas');
      if (!verdict || !canvas || !document.querySelector('[data-strategy]')) return requestAnimationFrame(frame);
      const buttons = document.querySelector('[data-strategy]').getBoundingClientRect().top + scrollY;
      window.__firstFrame = { verdictBottom: verdict.getBoundingClientRect().bottom + scrollY, canvasHeight: canvas.getBoundingClientRect().height, pixels: canvas.width, buttons };
    };
    requestAnimationFrame(frame);
  });
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=7&speed=10x`);
  const verdict = page.locator('[data-testid="verdict"]');
  await verdict.waitFor();
  const expected = cli(['charges', '--strategy', 'timeout-no-key', '--seed', '7']);
  assert.match(await verdict.textContent(), new RegExp(`^${expected.duplicates} extra charges`));
  const box = await page.locator('[data-testid="verdict"] p').boundingBox();
  assert.ok(box.y + box.height <= viewport.height, `the verdict's sentence is on the first screen: ${JSON.stringify(box)}`);
  inside(await page.locator('[data-testid="verdict"] canvas').boundingBox(), viewport, 'the verdict\'s small timeline');
  await page.screenshot({ path: 'target/screenshots/stage-phone-verdict.png' });
  await page.waitForTimeout(500);
  const first = await page.evaluate(() => window.__firstFrame);
  const now = await page.evaluate(() => ({
    verdictBottom: document.querySelector('[data-testid="verdict"]').getBoundingClientRect().bottom + scrollY,
    buttons: document.querySelector('[data-strategy]').getBoundingClientRect().top + scrollY,
    canvasHeight: document.querySelector('[data-testid="verdict"] canvas').getBoundingClientRect().height,
    pixels: document.querySelector('[data-testid="verdict"] canvas').width,
  }));
  assert.notEqual(now.pixels, 300, `the verdict's picture has been drawn: ${JSON.stringify(now)}`);
  assert.equal(now.canvasHeight, first.canvasHeight, 'the picture kept the height it had before it was drawn');
  assert.equal(now.verdictBottom, first.verdictBottom, 'nothing below the verdict moved when the picture was drawn');
  assert.equal(first.pixels, 300, 'the first frame did not wait for the drawing');
  // What is built after the first paint lies below the strategy buttons: they stay put.
  assert.equal(now.buttons, first.buttons, 'the strategy buttons did not move after the first frame');
  assert.equal(await page.getAttribute('[data-testid="app"]', 'data-run-state'), 'idle', 'nothing plays out of sight');
  await page.locator('[data-testid="stage"]').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('[data-testid="app"]').dataset.runState !== 'idle');
  await page.context().close();
});

for (const [width, height] of [[375, 740], [1366, 768]]) {
  test(`no chart text under 12 CSS px at ${width} px (run, compare)`, async () => {
    const page = await openPage(lab.browser, { viewport: { width, height } });
    await page.addInitScript(RECORD_CANVAS_TEXT);
    for (const url of ['?strategy=timeout-no-key&seed=7&speed=instant', '?view=compare&seed=7']) {
      await page.goto(`${lab.server.base}${url}`);
      await page.waitForFunction(() => ['done'].includes(document.querySelector('[data-testid="app"]')?.dataset.runState) || document.querySelector('.rll-multiples canvas'));
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForTimeout(400);
      const drawn = await page.evaluate(() => window.__canvasText);
      assert.ok(drawn.length > 5, `${url}: some chart text was drawn (${drawn.length})`);
      const small = drawn.filter((d) => d.css < 11.95);
      assert.deepEqual(small, [], `${url} at ${width}px: chart text under 12 px`);
      const svgSmall = await page.$$eval('svg text', (els) => els.map((e) => [e.textContent, parseFloat(getComputedStyle(e).fontSize) * (e.ownerSVGElement.getBoundingClientRect().width / (e.ownerSVGElement.viewBox.baseVal?.width || e.ownerSVGElement.getBoundingClientRect().width))]).filter(([, px]) => px < 11.95));
      assert.deepEqual(svgSmall, [], `${url} at ${width}px: SVG text under 12 px`);
    }
    await page.context().close();
  });
}

test('on a 375 px phone every speed button is whole, inside its group and the window', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 375, height: 740 }, isMobile: true });
  await page.goto(`${lab.server.base}?seed=3`);
  await page.waitForSelector('[data-speed]');
  const boxes = await page.$$eval('[data-speed]', (els) => els.map((b) => {
    const r = b.getBoundingClientRect();
    const g = b.parentElement.getBoundingClientRect();
    const bar = b.closest('.rll-controls').getBoundingClientRect();
    return { speed: b.dataset.speed, left: r.left, right: r.right, groupLeft: g.left, groupRight: g.right, barRight: bar.right, clipped: b.scrollWidth > b.clientWidth };
  }));
  assert.equal(boxes.length, 5);
  for (const b of boxes) {
    assert.ok(b.left >= b.groupLeft - 0.5 && b.right <= b.groupRight + 0.5, `${b.speed} reaches ${b.right} px in a group ending at ${b.groupRight} px`);
    assert.ok(b.right <= Math.min(375, b.barRight) + 0.5, `${b.speed} reaches ${b.right} px; the bar ends at ${b.barRight} px`);
    assert.equal(b.clipped, false, `${b.speed}'s label is cut`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a scene name in the URL opens the story the CLI names; the open story is in the URL; Back returns', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 900 } });
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=7&speed=instant&customer=double-charge`);
  await waitForState(page, 'done');
  const named = Number(/^customer (\d+)/.exec(cliText(['charges', '--strategy', 'timeout-no-key', '--seed', '7', '--customer', 'double-charge']))[1]);
  await page.locator(`[data-testid="story"][data-customer="${named}"]`).waitFor();
  assert.equal(new URL(page.url()).searchParams.get('customer'), String(named), 'the URL names the customer');
  // Another scene: the URL follows, and Copy link would copy it.
  await page.click('[data-scene="declined"]');
  const declined = await page.getAttribute('[data-testid="story"]', 'data-customer');
  assert.notEqual(declined, String(named));
  assert.equal(new URL(page.url()).searchParams.get('customer'), declined);
  await page.goBack();
  await page.locator(`[data-testid="story"][data-customer="${named}"]`).waitFor();
  // Another strategy, then Back: the strategy before.
  await page.click('[data-strategy="keyed"]');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('strategy') === 'keyed');
  await waitForState(page, 'done');
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('[data-strategy="timeout-no-key"]').getAttribute('aria-pressed') === 'true');
  await waitForState(page, 'done');
  assert.equal(new URL(page.url()).searchParams.get('strategy'), 'timeout-no-key');
  assert.ok(page.url().startsWith(lab.server.base), 'Back stayed in the lab');
  // A name that is neither a number nor a scene is refused with a sentence.
  await page.goto(`${lab.server.base}?strategy=keyed&seed=7&speed=instant&customer=conflict`);
  await waitForState(page, 'done');
  await page.locator('[data-testid="story"]').waitFor();
  await page.goto(`${lab.server.base}?strategy=keyed&seed=7&speed=instant&customer=bogus`);
  assert.match(await page.textContent('.rll-notice'), /not one of the scenes/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('with a key, a charge after the client stopped waiting is not painted as harm', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 900 } });
  for (const [strategy, harm] of [['keyed', false], ['pool', false]]) {
    await page.goto(`${lab.server.base}?strategy=${strategy}&seed=1&speed=instant&customer=charged-after-timeout`);
    await waitForState(page, 'done');
    const row = page.locator('[data-testid="story"] tr[data-charged="true"][data-client-kind="timedOut"]').first();
    await row.waitFor();
    assert.equal(await row.evaluate((el) => el.classList.contains('rll-harm')), harm, strategy);
  }
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=7&speed=instant&customer=double-charge`);
  await waitForState(page, 'done');
  const row = page.locator('[data-testid="story"] tr[data-charged="true"][data-client-kind="timedOut"]').first();
  assert.equal(await row.evaluate((el) => el.classList.contains('rll-harm')), true, 'without a key it is a double charge');
  // A run with a record has its timeline, grid and story, and no note saying it has not.
  assert.equal(await page.locator('[data-testid="unrecorded-note"]:visible').count(), 0);
  await page.context().close();
});

test('above 50,000 customers: no empty timeline or grid, and no CSV button that only apologises', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 900 } });
  await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=instant&customers=60000`);
  await waitForState(page, 'done', 60_000);
  assert.equal(await page.locator('[data-testid="timeline"]').isVisible(), false, 'no empty timeline');
  assert.equal(await page.locator('[data-testid="story-panel"]').isVisible(), false, 'no grid or story');
  assert.ok(await page.locator('[data-testid="unrecorded-note"]').first().isVisible(), 'the note says why');
  assert.equal(await page.isDisabled('[data-testid="export-csv"]'), true);
  assert.equal(await page.isDisabled('[data-testid="export-json"]'), false);
  await page.context().close();
});

test('above 10,000 customers the grid says it shows the first 10,000; below, it says nothing', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 900 } });
  const caption = page.locator('.rll-grid-wrap .rll-caption');
  await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=instant&customers=12000`);
  await waitForState(page, 'done', 60_000);
  await page.waitForSelector('[data-testid="grid"]');
  assert.equal(await caption.isVisible(), true);
  assert.match(await caption.textContent(), /first 10,000 customers/);
  await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=instant`);
  await waitForState(page, 'done');
  await page.waitForSelector('[data-testid="grid"]');
  assert.equal(await caption.isVisible(), false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('one duration: the clock names the provider\'s tail after the client finished', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 900 } });
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=7&speed=instant`);
  await waitForState(page, 'done');
  const expected = cli(['charges', '--strategy', 'timeout-no-key', '--seed', '7']);
  // The tail is written as the clock is (to the hundredth), so it never reads later than
  // the clock beside it; the summary's sentence rounds to the tenth.
  const finished = (Math.round(expected.elapsedMs / 10) / 100).toFixed(2);
  const secs = (Math.round(expected.elapsedMs / 100) / 10).toFixed(1);
  assert.match(await page.textContent('[data-testid="clock-tail"]'), new RegExp(`client finished at ${finished.replace('.', '\\.')} s`));
  assert.match(await page.textContent('[data-testid="summary"]'), new RegExp(`in ${secs.replace('.', '\\.')} s\\.$`));
  await page.context().close();
});

test('?present=1: chart text at least 16 px at 1366 wide, the prose folded away, the stage on the first screen', async () => {
  const viewport = { width: 1366, height: 768 };
  const page = await openPage(lab.browser, { viewport });
  await page.addInitScript(RECORD_CANVAS_TEXT);
  await page.goto(`${lab.server.base}?strategy=pool&seed=2&speed=1x&present=1`);
  await waitForState(page, 'running');
  await page.waitForTimeout(600);
  const drawn = await page.evaluate(() => window.__canvasText);
  assert.ok(drawn.length > 5);
  assert.deepEqual(drawn.filter((d) => d.css < 15.95), [], 'chart text under 16 px in the presenter layout');
  assert.equal(await page.locator('.rll-intro').isVisible(), false, 'the provider prose is folded away');
  for (const sel of ['[data-testid="pause"]', '[data-testid="sim-clock"]', '[data-testid="timeline"] canvas', '[data-testid="key-counters"]']) {
    inside(await page.locator(sel).first().boundingBox(), viewport, sel);
  }
  // Runs chosen in the room keep the layout in their links.
  await page.keyboard.press('5');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('strategy') === 'keyed');
  assert.equal(new URL(page.url()).searchParams.get('present'), '1');
  await page.screenshot({ path: 'target/screenshots/stage-present-1366.png' });
  await page.context().close();
});

test('a knob reruns at once: timeout 1000 → 3000 ms on timeout-no-key gives the CLI\'s numbers, keeps a ghost, and the URL follows', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 900 } });
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=7&speed=instant`);
  await waitForState(page, 'done');
  const before = cli(['charges', '--strategy', 'timeout-no-key', '--seed', '7']);
  const after = cli(['charges', '--strategy', 'timeout-no-key', '--seed', '7', '--timeoutMs', '3000']);
  assert.ok(before.duplicates > 0 && after.duplicates !== before.duplicates, 'the timeout matters here');
  const knob = page.locator('[data-knob="timeoutMs"]');
  await knob.focus();
  // Twenty steps of 100 ms, as a reader's arrow keys (or a drag) would make them.
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('timeoutMs') === '3000');
  await waitForState(page, 'done');
  const shown = Object.fromEntries(await page.$$eval('[data-testid="key-counters"] [data-stat]', (els) => els.map((e) => [e.dataset.stat, Number(e.textContent.replace(/,/g, ''))])));
  for (const [field, value] of Object.entries(shown)) assert.equal(value, after[field], `knob at 3000: ${field}`);
  // The ghost: the old value named, and each counter's change from it.
  assert.match(await page.textContent('[data-testid="ghost-values"]'), /1000/);
  const dup = await page.textContent('[data-ghost="duplicates"]');
  assert.match(dup, new RegExp(`was ${before.duplicates} \\(−${before.duplicates - after.duplicates}\\)`));
  assert.equal(await page.textContent('[data-knob-value="timeoutMs"]'), '3000');
  // Space in a slider is not a shortcut that restarts anything odd; Forget it clears.
  await page.click('[data-testid="ghost-dismiss"]');
  assert.equal(await page.locator('[data-testid="ghost"]').isVisible(), false);
  assert.equal(await page.locator('[data-ghost]').count(), 0);
  // Another knob value, then another strategy: the ghost goes with the strategy.
  await knob.focus();
  await page.keyboard.press('ArrowLeft');
  await page.locator('[data-testid="ghost"]').waitFor();
  await page.click('[data-strategy="keyed"]');
  await page.locator('[data-testid="ghost"]').waitFor({ state: 'hidden' });
  assert.deepEqual(page.errors, []);
  await page.screenshot({ path: 'target/screenshots/stage-knobs.png', fullPage: false });
  await page.context().close();
});

test('pointing at a timeline mark names that request as the CLI tells it; a click opens the story and the URL keeps it', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 900 } });
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=7&speed=instant`);
  await waitForState(page, 'done');
  const canvas = page.locator('[data-testid="timeline"] canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  // Sweep the pointer over the marks' band until it names a request.
  let found = null;
  for (let fy = 0.05; fy < 0.5 && !found; fy += 0.03) {
    for (let fx = 0.1; fx < 0.9 && !found; fx += 0.02) {
      await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
      if (await page.locator('[data-testid="timeline-tip"]').isVisible()) found = [fx, fy];
    }
  }
  assert.ok(found, 'some mark names its request');
  const tip = page.locator('[data-testid="timeline-tip"]');
  const customer = await tip.getAttribute('data-customer');
  const text = (await tip.textContent()).trim();
  const story = cliText(['charges', '--strategy', 'timeout-no-key', '--seed', '7', '--customer', customer]);
  const sentence = text.replace(/^Customer \d+\. /, '');
  assert.ok(story.includes(sentence), `the tip "${sentence}" is a line of the CLI's story:\n${story}`);
  await page.mouse.click(box.x + box.width * found[0], box.y + box.height * found[1]);
  await page.locator(`[data-testid="story"][data-customer="${customer}"]`).waitFor();
  assert.equal(new URL(page.url()).searchParams.get('customer'), customer, 'Copy link would keep the story');
  await page.mouse.move(0, 0);
  assert.equal(await tip.isVisible(), false, 'the name goes with the pointer');
  await page.context().close();
});

test('before the first run the timeline says what will appear there, not a blank canvas', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await page.goto(`${lab.server.base}?seed=3`);
  await waitForState(page, 'idle');
  assert.equal(await page.locator('[data-testid="timeline"] canvas').isVisible(), false);
  assert.match(await page.textContent('[data-testid="timeline-empty"]'), /Every request will appear here/);
  await page.keyboard.press('Space');
  await page.locator('[data-testid="timeline"] canvas').waitFor({ state: 'visible' });
  assert.equal(await page.locator('[data-testid="timeline-empty"]').isVisible(), false);
  await page.context().close();
});

for (const [width, height] of [[1366, 768], [375, 740]]) {
  test(`no button's words overflow it at ${width} px (run, limits)`, async () => {
    const page = await openPage(lab.browser, { viewport: { width, height } });
    for (const url of ['?seed=2', '?section=limits']) {
      await page.goto(`${lab.server.base}${url}`);
      await page.waitForSelector('[data-strategy], [data-experiment]');
      await page.waitForTimeout(300);
      const over = await page.$$eval('button', (bs) => bs.filter((b) => b.offsetParent && b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent.trim()));
      assert.deepEqual(over, [], `${url} at ${width}px`);
    }
    await page.context().close();
  });
}

test('hovering a customer in the grid highlights that customer\'s marks on the timeline', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 1400 } });
  await page.goto(`${lab.server.base}?strategy=timeout-no-key&seed=7&speed=instant`);
  await waitForState(page, 'done');
  const grid = page.locator('[data-testid="grid"]');
  await grid.scrollIntoViewIfNeeded();
  // Two frames, so the browser's hit testing knows where the scroll put the grid (a move
  // straight after the scroll could land on the section under the grid's old place).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const box = await grid.boundingBox();
  // The grid's first row, a few cells in: customer (column + 1).
  await page.mouse.move(box.x + 4 * 15 + 5, box.y + 5);
  const timeline = page.locator('[data-testid="timeline"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="timeline"]').dataset.highlight);
  const customer = await timeline.getAttribute('data-highlight');
  const story = cliText(['charges', '--strategy', 'timeout-no-key', '--seed', '7', '--customer', customer]);
  const attempts = story.split('\n').filter((l) => l.startsWith('Attempt')).length;
  assert.ok(attempts >= 1);
  assert.equal(await timeline.getAttribute('data-highlight-marks'), String(attempts), `customer ${customer}'s marks`);
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => !document.querySelector('[data-testid="timeline"]').dataset.highlight);
  await page.context().close();
});
