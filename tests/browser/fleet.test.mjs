// The fleet on the limits page (issue 50, parts 1 and 2): every figure shown equals
// `ratelab limits fleet … --json` for the settings the address holds, and the footer's
// command reproduces it; four local instances admit four times one process on the burst
// while the atomic store holds; a setting out of range is refused with its sentence; and
// the race, stepped from the keyboard, lets the 11th request through with read-then-write
// and not with the atomic script.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DIST, useLab, openPage, readResults, cli, footerArgs, screenshotPath } from './harness.mjs';

const lab = useLab(before, after);

// The fleet's settings keys (crates/page/src/limits/settings.rs, KNOBS).
const KEYS = ['fleetInstances', 'fleetBalancer', 'fleetMode', 'fleetRttUs', 'fleetLimiter', 'fleetBurst'];

async function open(page, seed, extra = '') {
  await page.goto(`${lab.server.base}?section=limits&experiment=fleet&seed=${seed}${extra}`);
  await page.waitForSelector('[data-testid="limits"][data-state="done"][data-experiment="fleet"]');
  await page.waitForSelector('[data-result="fleet.instances"]', { state: 'attached' });
}

/** The fleet's settings in the address, as CLI flags. */
async function flags(page) {
  const params = new URL(page.url()).searchParams;
  return KEYS.filter((k) => params.has(k)).flatMap((k) => [`--${k}`, params.get(k)]);
}

async function cellsMatchCli(page, seed) {
  const settings = await flags(page);
  const expected = cli(['limits', 'fleet', '--seed', seed, ...settings]).cells;
  const shown = await readResults(page, '[data-testid="limits"]');
  assert.ok(Object.keys(expected).length > 100, 'the fleet has its cells');
  assert.deepEqual(shown, expected, `fleet ${settings.join(' ')}`);
  return shown;
}

for (const seed of ['1', '7']) {
  test(`the fleet's figures equal the CLI's, seed ${seed}, and the footer's command reproduces them`, async () => {
    const page = await openPage(lab.browser);
    await open(page, seed, '&fleetBalancer=random&fleetMode=read-then-write&fleetRttUs=200');
    const shown = await cellsMatchCli(page, seed);
    const args = await footerArgs(page);
    assert.equal(args[0], 'limits');
    assert.equal(args[1], 'fleet');
    assert.deepEqual(cli(args).cells, shown, args.join(' '));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('four instances: the local limits admit four times one process on the burst, the atomic store holds', async () => {
  const page = await openPage(lab.browser);
  await open(page, '3', '&fleetInstances=2');
  // The reader sets four instances from the keyboard.
  const slider = '[data-knob="fleetInstances"]';
  await page.focus(slider);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('fleetInstances') === null);
  await page.waitForSelector('[data-result="fleet.instances"]:text-is("4")', { state: 'attached' });
  const cells = await cellsMatchCli(page, '3');
  const one = Number(cells['fleet.burstOneProcess']);
  assert.equal(Number(cells['fleet.localBurstAdmitted']), 4 * one, 'four instances, four times');
  assert.equal(cells['fleet.atomicBurstAdmitted'], cells['fleet.burstOneProcess']);
  assert.equal(cells['fleet.atomicBurstOver'], '0.0');
  assert.equal(cells['fleet.atomicBurstUnder'], '0.0');
  const lead = await page.textContent('[data-testid="fleet-lead"]');
  assert.ok(lead.includes(`admit ${cells['fleet.localBurstAdmitted']} (4× as many)`), lead);
  assert.ok(lead.includes(`the atomic store admits ${cells['fleet.atomicBurstAdmitted']}, 0.0 over and 0.0 under`), lead);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a fleet setting out of range is refused with its sentence, and a refused combination says why', async () => {
  const page = await openPage(lab.browser);
  await open(page, '1', '&fleetInstances=40&fleetMode=sometimes');
  const text = await page.textContent('[data-testid="query-problems"]');
  assert.match(text, /Instances \(fleetInstances\): 40 is outside 1–16 instances\. Using the default, 4 instances\./);
  assert.match(text, /\(fleetMode\): 'sometimes' is not one of local, share, read-then-write, atomic, cache, owner\./);
  await open(page, '1', '&fleetInstances=12&fleetMode=share');
  const picked = await page.textContent('[data-testid="fleet-picked"]');
  assert.match(picked, /cannot run: a 1\/N share of 10 requests over 12 instances leaves some instance less than one request/);
  const cells = await cellsMatchCli(page, '1');
  assert.equal(cells['fleet.shareRefused'], 'shareBelowOne');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Presses `key` in the race `n` times. */
async function press(page, key, n) {
  for (let i = 0; i < n; i++) await page.keyboard.press(key);
}

test('the race, stepped by keyboard: read-then-write admits the 11th request, the atomic script does not', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await open(page, '1');
  await page.waitForSelector('[data-testid="race"]');
  assert.equal(await page.textContent('[data-testid="race-admitted"]'), '9');
  assert.equal(await page.textContent('[data-testid="race-counter"]'), '9');
  // Tab into the race's box (the keyboard's way in), then step with →.
  await page.focus('[data-testid="race-next"]');
  await page.keyboard.press('Shift+Tab');
  const focused = await page.evaluate(() => document.activeElement?.dataset.testid);
  assert.equal(focused, 'race', 'the race box takes the focus');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none', 'the focus is visible');
  await press(page, 'ArrowRight', 2);
  assert.equal(await page.getAttribute('[data-testid="race"]', 'data-race-at'), '2');
  assert.equal(await page.textContent('[data-testid="race-counter"]'), '9', 'both read 9');
  await page.screenshot({ path: screenshotPath('fleet-race-1366-step2.png') });
  await press(page, 'ArrowRight', 4);
  assert.equal(await page.getAttribute('[data-testid="race"]', 'data-race-at'), '6');
  assert.equal(await page.textContent('[data-testid="race-admitted"]'), '11');
  assert.equal(await page.textContent('[data-testid="race-counter"]'), '10');
  assert.match(await page.textContent('[data-testid="race-say"]'), /11 requests admitted against a limit of 10, and the counter says 10: request 11 slipped through\./);
  assert.equal(await page.getAttribute('[data-testid="race-next"]', 'disabled'), '');
  await page.screenshot({ path: screenshotPath('fleet-race-1366-end.png') });
  // Back one step with ←: the last write undone.
  await press(page, 'ArrowLeft', 1);
  assert.equal(await page.getAttribute('[data-testid="race"]', 'data-race-at'), '5');
  // The atomic script: its button from the keyboard, then → to the end.
  await page.focus('[data-race-mode="atomic"]');
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('[data-race-mode="atomic"]', 'aria-pressed'), 'true');
  assert.equal(await page.getAttribute('[data-testid="race"]', 'data-race-at'), '0');
  await press(page, 'ArrowRight', 5);
  assert.equal(await page.getAttribute('[data-testid="race"]', 'data-race-at'), '2');
  assert.equal(await page.textContent('[data-testid="race-admitted"]'), '10');
  assert.equal(await page.textContent('[data-testid="race-counter"]'), '10');
  assert.match(await page.textContent('[data-testid="race-say"]'), /request 11 gets a 429\. 10 requests admitted, the limit held/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a 375 px phone the fleet and the race fit the screen', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 375, height: 800 } });
  await open(page, '1');
  await page.waitForSelector('[data-testid="race"]');
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 375, `the page is ${wide} px wide`);
  await page.click('[data-testid="race-next"]');
  await page.click('[data-testid="race-next"]');
  await page.locator('[data-testid="race-section"]').screenshot({ path: screenshotPath('fleet-race-375.png') });
  await page.locator('[data-testid="fleet-lead"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('fleet-375.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The fleet is a part of the limits page in a module of its own
// (crates/web/src/bin/rate-limit-lab-fleet.rs): the page's module carries none of its
// engine or words, and downloads it the first time a reader picks the fleet, once.
test('the limits page downloads the fleet\'s module only when the fleet is picked, once, and its own module holds none of the fleet\'s or the race\'s words', async () => {
  // Words only the fleet's figures write (page::limits::fleet::mode_engine), and only
  // the race (page::limits::race).
  const wasm = (name) => fs.readFileSync(path.join(DIST, `${name}_bg.wasm`));
  for (const words of ['an nginx limit_req zone per server', 'reads the counter for request']) {
    assert.ok(wasm('rate-limit-lab-fleet').includes(words), `the fleet's module writes '${words}'`);
    assert.ok(!wasm('rate-limit-lab-limits').includes(words), `the limits page's module does not write '${words}'`);
  }
  const page = await openPage(lab.browser);
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname.split('/').pop()));
  const parts = () => fetched.filter((f) => f.startsWith('rate-limit-lab-fleet'));
  await page.goto(`${lab.server.base}?section=limits&experiment=burst`);
  await page.waitForSelector('[data-testid="limits"][data-state="done"][data-experiment="burst"]');
  await page.waitForSelector('[data-result="burst.fixedAccepted"]', { state: 'attached' });
  assert.deepEqual(parts(), [], 'nothing of the fleet before it is picked');
  await page.click('button[data-experiment="fleet"]');
  await page.waitForSelector('[data-result="fleet.instances"]', { state: 'attached' });
  assert.deepEqual(parts().sort(), ['rate-limit-lab-fleet.js', 'rate-limit-lab-fleet_bg.wasm']);
  assert.equal(await page.isHidden('[data-testid="fleet-arriving"]'), true, 'the caption goes once it has drawn');
  await cellsMatchCli(page, '1');
  // Away and back: the module is not downloaded again, and draws the knobs' values.
  await page.click('button[data-experiment="burst"]');
  await page.waitForSelector('[data-result="burst.fixedAccepted"]', { state: 'attached' });
  await page.click('button[data-experiment="fleet"]');
  await page.waitForSelector('[data-result="fleet.instances"]', { state: 'attached' });
  await page.focus('[data-knob="fleetInstances"]');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('[data-result="fleet.instances"]:text-is("3")', { state: 'attached' });
  await cellsMatchCli(page, '1');
  // The race, mounted again by the module in the new box, steps from the start.
  await page.click('[data-testid="race-next"]');
  assert.equal(await page.getAttribute('[data-testid="race"]', 'data-race-at'), '1');
  assert.equal(await page.locator('[data-testid="race"]').count(), 1);
  assert.equal(parts().length, 2, parts().join(' '));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a fleet\'s module that cannot load leaves the knobs and says why, with no figures', async () => {
  const page = await openPage(lab.browser);
  await page.route('**/rate-limit-lab-fleet_bg.wasm', (route) => route.abort());
  await page.goto(`${lab.server.base}?section=limits&experiment=fleet`);
  await page.waitForSelector('[data-testid="lab-error"]:not([hidden])');
  assert.match(await page.textContent('[data-testid="lab-error"]'), /^The fleet's module could not load \(.+\)\. Reloading the page may help\.$/);
  assert.equal(await page.locator('[data-result^="fleet."]').count(), 0);
  assert.equal(await page.locator('[data-knob="fleetInstances"]').count(), 1);
  await page.context().close();
});
