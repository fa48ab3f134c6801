// The run page's first module (issue 51): run.html starts with the page down to its stage
// (rate-limit-lab-stage), and the whole page's module takes the page over as it mounts
// (crates/web/src/run/hand_over.rs). Whatever the reader did in between goes on: the same
// run at the same instant, playing, paused, stepped or done, the stage where it stood on
// the screen, and the focus on the same control. Each test holds the whole page's module
// back until the reader has done something with the first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState, readStats, cli } from './harness.mjs';

const lab = useLab(before, after);
const PROJECTOR = { width: 1366, height: 768 };

const runState = (page) => page.getAttribute('[data-testid="app"]', 'data-run-state');
const playheadMs = async (page) => Number(await page.getAttribute('[data-testid="playhead"]', 'data-ms'));
const blur = (page) => page.evaluate(() => document.activeElement?.blur());

// Each frame, before it paints, how many stages and pages the document holds, from the
// first that holds one: a hand-over shows exactly one at every frame.
const COUNT_FRAMES = () => {
  window.__frames = [];
  const look = () => {
    const stages = document.querySelectorAll('[data-testid="stage"]').length;
    const pages = document.querySelectorAll('[data-testid="app"]').length;
    if (stages > 0 || window.__frames.length > 0) window.__frames.push([stages, pages]);
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
};

/** Opens `link` with the whole page's module held back; resolves once the first module's
 * page is on screen, with `release()` to let the whole page's module arrive. */
async function openHeld(link, viewport = PROJECTOR) {
  const page = await openPage(lab.browser, { viewport });
  await page.addInitScript(COUNT_FRAMES);
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  await page.route('**/rate-limit-lab_bg.wasm', async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(lab.server.base + link);
  await page.waitForSelector('[data-testid="app"] [data-testid="stage"] [data-strategy]');
  assert.equal(await page.locator('[data-testid="code-view"]').count(), 0, 'the first module has no panels');
  return { page, release };
}

/** Lets the whole page's module arrive, and waits until it has taken the page over. */
async function takeOver(page, release) {
  release();
  await page.waitForSelector('[data-testid="code-view"]');
  const frames = await page.evaluate(() => window.__frames);
  assert.ok(frames.length > 0, 'frames were counted');
  assert.deepEqual(frames.filter(([stages, pages]) => stages !== 1 || pages !== 1), [], 'every frame shows one stage on one page');
  assert.equal(await page.locator('[data-testid="app"]').count(), 1);
}

async function assertStatsAt(page, strategy, seed, ms) {
  const expected = cli(['charges', '--strategy', strategy, '--seed', seed, ...(ms === null ? [] : ['--until-ms', String(ms)])]);
  const shown = await readStats(page);
  assert.ok(Object.keys(shown).length >= 4, 'counters on the page');
  for (const [field, value] of Object.entries(shown)) {
    assert.equal(value, String(expected[field]), `${strategy} seed ${seed} at ${ms ?? 'the end'}: ${field}`);
  }
}

// The clock's text as microseconds, to the precision it is written with.
function clockUs(text) {
  const m = text.trim().match(/^([\d,.]+) (ms|s)$/);
  assert.ok(m, `a clock: ${text}`);
  const n = Number(m[1].replace(/,/g, ''));
  return Math.round(m[2] === 's' ? n * 1e6 : n * 1e3);
}
const clock = async (page) => clockUs(await page.textContent('[data-testid="sim-clock"]'));

test('idle: the whole page takes over with the stage where it stood, on a projector and on a phone', async () => {
  for (const viewport of [PROJECTOR, { width: 375, height: 812 }]) {
    const { page, release } = await openHeld('run.html?seed=7', viewport);
    // The stage's control bar, its timeline and its counters: what the first module
    // draws. Under them the whole page adds its panels, so the stage grows downwards.
    const boxes = () =>
      page.$$eval('[data-testid="stage"] :is(.rll-stage-bar, [data-testid="timeline"], [data-stat])', (els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return [e.className, r.x, r.y, r.width, r.height].join(' ');
        }),
      );
    const before = await boxes();
    assert.ok(before.length >= 4, `the stage's parts: ${before.join('; ')}`);
    const buttons = await page.$$eval('[data-strategy]', (els) => els.map((e) => e.dataset.strategy));
    await takeOver(page, release);
    assert.deepEqual(await boxes(), before, `${viewport.width} px: nothing the first module drew moved`);
    assert.deepEqual(await page.$$eval('[data-strategy]', (els) => els.map((e) => e.dataset.strategy)), buttons);
    assert.equal(await runState(page), 'idle');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('mid-run: the run plays on from where it was, and is the CLI\'s run', async () => {
  const { page, release } = await openHeld('run.html?strategy=timeout-no-key&seed=7&speed=1x');
  await waitForState(page, 'running');
  await page.waitForTimeout(900);
  const before = await clock(page);
  assert.ok(before > 500_000, `the first module played the run: ${before} µs`);
  await takeOver(page, release);
  assert.equal(await runState(page), 'running');
  const then = await clock(page);
  assert.ok(then >= before, `played on from ${before} µs, not from the start: ${then} µs`);
  // An arrow pauses it and steps to a request: the counters there are the CLI's.
  await blur(page);
  await page.keyboard.press('ArrowRight');
  await waitForState(page, 'paused');
  const at = await playheadMs(page);
  assert.ok(at * 1000 >= before, `stepped on from ${before} µs: ${at} ms`);
  await assertStatsAt(page, 'timeout-no-key', '7', at);
  assert.match(page.url(), /strategy=timeout-no-key&seed=7&speed=1x/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('paused and stepped with the keyboard: the same playhead and counters, the focus on the same button, and the keys step on', async () => {
  const { page, release } = await openHeld('run.html?strategy=timeout-no-key&seed=7&speed=1x');
  await waitForState(page, 'running');
  await page.waitForTimeout(700);
  await blur(page);
  await page.keyboard.press(' ');
  await waitForState(page, 'paused');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const stepped = await playheadMs(page);
  const readout = (await page.textContent('[data-testid="playhead-harm"]')).trim();
  await assertStatsAt(page, 'timeout-no-key', '7', stepped);
  await page.focus('[data-strategy="pool"]');
  await takeOver(page, release);
  assert.equal(await runState(page), 'paused');
  assert.equal(await playheadMs(page), stepped);
  assert.equal((await page.textContent('[data-testid="playhead-harm"]')).trim(), readout, 'the readout names the same request');
  await assertStatsAt(page, 'timeout-no-key', '7', stepped);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.strategy), 'pool', 'the focus stayed on the same button');
  await blur(page);
  await page.keyboard.press('ArrowRight');
  const next = await playheadMs(page);
  assert.ok(next > stepped, `stepped on: ${next} > ${stepped}`);
  await assertStatsAt(page, 'timeout-no-key', '7', next);
  // Space plays on from the playhead, in the whole page.
  await page.keyboard.press(' ');
  assert.equal(await runState(page), 'running');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('done: the finished run stays on screen, its counters the CLI\'s, and the address names it once the page has taken over', async () => {
  const { page, release } = await openHeld('run.html?seed=7&speed=instant');
  await page.click('[data-strategy="keyed"]');
  await waitForState(page, 'done');
  await assertStatsAt(page, 'keyed', '7', null);
  // The first module leaves the address as the link opened it.
  assert.equal(new URL(page.url()).search, '?seed=7&speed=instant');
  await takeOver(page, release);
  assert.equal(await runState(page), 'done');
  await assertStatsAt(page, 'keyed', '7', null);
  const address = new URL(page.url()).searchParams;
  assert.equal(address.get('strategy'), 'keyed');
  assert.equal(address.get('seed'), '7');
  await page.waitForSelector('[data-testid="grid"]');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a first module that cannot be had leaves the page to its own module', async () => {
  const page = await openPage(lab.browser, { viewport: PROJECTOR });
  await page.route('**/rate-limit-lab-stage_bg.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(`${lab.server.base}run.html?strategy=keyed&seed=7&speed=instant`);
  await page.waitForSelector('[data-testid="app"][data-run-state="done"] [data-testid="code-view"]');
  await assertStatsAt(page, 'keyed', '7', null);
  assert.deepEqual(page.errors.filter((e) => !e.includes('404')), []);
  await page.context().close();
});
