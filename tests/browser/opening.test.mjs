// The lab's opening at its bare address: one customer charged twice, and the key that
// stops it. Its times are the CLI's story of the same customer; it is on the first
// screen of a phone and of a projector, before and after the module arrives; it plays,
// steps, starts the walk and zooms out to the stage.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState, cli, screenshotPath } from './harness.mjs';

const lab = useLab(before, after);

const ms = (us) => `${Math.floor(us / 1000).toLocaleString('en-US')} ms`;
/** Every instant of a CLI story: sends, the client's ends, the provider's ends. */
const instants = (story) => story.attempts.flatMap((a) => [a.sentAtUs, a.client.atUs, a.provider.atUs].filter((t) => t !== undefined));
const charges = (story) => story.attempts.filter((a) => a.provider.charged).map((a) => Math.floor(a.provider.atUs / 1000));

const without = cli(['charges', '--strategy', 'timeout-no-key', '--seed', '1', '--customer', 'double-charge']);
const withKey = cli(['charges', '--strategy', 'keyed', '--seed', '1', '--customer', String(without.customer)]);

const SIZES = [{ width: 375, height: 740 }, { width: 1366, height: 768 }];

/** The sentence a picture shows: of its list, the one the clock makes visible. */
const shownLine = (page, testid) =>
  page.$eval(`[data-testid="app"] [data-testid="${testid}"] .rll-opening-lines`, (ol) =>
    [...ol.children].filter((li) => getComputedStyle(li).opacity === '1').map((li) => li.textContent).join(' | '));

/** The bottom of `sel`'s box, and the viewport's height. */
const bottomOf = (page, sel) => page.evaluate((s) => document.querySelector(s).getBoundingClientRect().bottom, sel);

test('the opening draws the CLI\'s story of the first double charge and its keyed twin, at the end of the story', async () => {
  assert.equal(without.charges, 2);
  assert.equal(withKey.charges, 1);
  const page = await openPage(lab.browser, { viewport: SIZES[1] });
  await page.goto(lab.server.base);
  await page.locator('[data-testid="app"] [data-testid="opening"]').waitFor();
  for (const [testid, story] of [['opening-without', without], ['opening-with', withKey]]) {
    const panel = page.locator(`[data-testid="app"] [data-testid="${testid}"]`);
    assert.equal(Number(await panel.getAttribute('data-charges')), story.charges, testid);
    const times = await panel.locator('.rll-op-time').allTextContents();
    assert.deepEqual([...new Set(times)].sort(), [...new Set(instants(story).map(ms))].sort(), `${testid}: every instant of the record, once`);
    const charged = await panel.locator('[data-charge="charge"]').evaluateAll((els) => els.map((e) => Number(e.dataset.atMs)));
    assert.deepEqual(charged, charges(story), `${testid}: the ledger's charges`);
    const line = await shownLine(page, testid);
    assert.match(line, new RegExp(`Customer ${without.customer} paid ${story.charges === 2 ? 'twice' : 'once'}`));
  }
  assert.match(await page.textContent('[data-testid="opening-bracket"]'), new RegExp(`customer ${without.customer} charged twice`));
  assert.equal(await page.textContent('[data-testid="opening-clock"]'), ms(Math.max(...instants(without), ...instants(withKey))));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the double charge is on the first screen at 375 and 1366 px, in the shell and in the app', async () => {
  for (const viewport of SIZES) {
    // The shell, with the module held back.
    const blocked = await openPage(lab.browser, { viewport });
    await blocked.route('**/*_bg.wasm', () => {});
    await blocked.goto(lab.server.base);
    await blocked.waitForSelector('#rll-opening [data-testid="opening-bracket"]');
    const shellBottom = await bottomOf(blocked, '#rll-opening [data-testid="opening-bracket"]');
    assert.ok(shellBottom <= viewport.height, `${viewport.width} px shell: the bracket ends at ${shellBottom}`);
    await blocked.context().close();

    const page = await openPage(lab.browser, { viewport });
    await page.goto(lab.server.base);
    await page.locator('[data-testid="app"] [data-testid="opening"]').waitFor();
    for (const sel of ['[data-testid="opening-bracket"]', '[data-testid="opening-play"]']) {
      const bottom = await bottomOf(page, `[data-testid="app"] ${sel}`);
      assert.ok(bottom <= viewport.height, `${viewport.width} px: ${sel} ends at ${bottom}`);
    }
    assert.equal(await bottomOf(page, '[data-testid="app"] [data-testid="opening-bracket"]'), shellBottom, 'nothing moved');
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= viewport.width, `${viewport.width} px: no sideways scroll (${wide})`);
    await page.screenshot({ path: screenshotPath(`opening-${viewport.width}.png`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('Play runs the story from its first event at the stage\'s speed, holding on each; the arrows step it; Instant ends it', async () => {
  const page = await openPage(lab.browser, { viewport: SIZES[1] });
  await page.goto(lab.server.base);
  const play = page.locator('[data-testid="opening-play"]');
  await play.waitFor();
  const clock = () => page.textContent('[data-testid="opening-clock"]');
  const line = () => shownLine(page, 'opening-without');
  const first = without.attempts[0];
  await play.click();
  assert.equal(await play.textContent(), 'Pause');
  // It holds on the first send, with its sentence.
  await page.waitForFunction((t) => document.querySelector('[data-testid="opening-clock"]').textContent === t, ms(first.sentAtUs));
  assert.match(await line(), /the client sends the charge, with no key/);
  // The marks of later events are hidden until the clock reaches them.
  const hidden = await page.$eval('[data-testid="opening-bracket"]', (e) => getComputedStyle(e).opacity);
  assert.equal(hidden, '0', 'the second charge has not happened yet');
  // Then the client gives up, and the clock holds there.
  await page.waitForFunction((t) => document.querySelector('[data-testid="opening-clock"]').textContent === t, ms(first.client.atUs), { timeout: 10_000 });
  assert.match(await line(), /gives up after 1,000 ms/);
  // Paused, → and ← step the record's events.
  await play.click();
  assert.equal(await play.textContent(), '▶ Play on');
  await play.focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await clock(), ms(first.provider.atUs));
  assert.match(await line(), /the money moves, but the client stopped listening/);
  await page.keyboard.press('ArrowRight');
  assert.equal(await clock(), ms(without.attempts[1].sentAtUs), 'the quiet time is stepped over');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await clock(), ms(first.provider.atUs));
  // The stage's playhead did not move: the opening had the keys.
  assert.equal(await page.locator('[data-testid="app"][data-run-state="idle"]').count(), 1);
  // At the stage's Instant speed, Play goes straight to the end.
  await page.click('[data-speed="instant"]');
  await play.click();
  await page.waitForFunction(() => document.querySelector('[data-testid="opening-play"]').textContent === '▶ Play');
  assert.match(await line(), /paid twice/);
  assert.equal(await page.$eval('[data-testid="opening-bracket"]', (e) => getComputedStyle(e).opacity), '1');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the opening starts the walk, and zooms out to the customer among all of them and back', async () => {
  const page = await openPage(lab.browser, { viewport: SIZES[1] });
  await page.goto(lab.server.base);
  await page.locator('[data-testid="opening-walk"]').waitFor();
  // No walk until asked.
  assert.equal(await page.locator('[data-testid="tour"]').count(), 0);
  await page.click('[data-testid="opening-zoom"]');
  await waitForState(page, 'done', 60_000);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('strategy'), 'timeout-no-key');
  assert.equal(url.searchParams.get('customer'), String(without.customer));
  await page.locator(`[data-testid="story"][data-customer="${without.customer}"]`).waitFor();
  const back = page.locator('[data-testid="to-opening"]');
  await back.waitFor();
  await back.click();
  await page.waitForFunction(() => {
    const r = document.querySelector('[data-testid="opening"]').getBoundingClientRect();
    return r.top >= -1 && r.top < window.innerHeight / 2;
  });
  // The walk is a page of its own (its module is not the bare address's): a link to it.
  await page.click('[data-testid="opening-walk"]');
  await page.locator('[data-testid="tour"][data-step="1"]').waitFor();
  assert.equal(new URL(page.url()).searchParams.get('tour'), '1');
  assert.equal(new URL(page.url()).pathname.split('/').pop(), 'walk.html');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('only the bare address opens on the story: a link with a query and the run page\'s own file do not', async () => {
  for (const link of ['?seed=3', 'run.html', '?tour=1']) {
    const page = await openPage(lab.browser, { viewport: SIZES[1] });
    await page.goto(lab.server.base + link);
    await page.locator('[data-testid="app"] [data-strategy]').first().waitFor();
    assert.equal(await page.locator('[data-testid="opening"]').count(), 0, link);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the opening plays before the run page\'s module has arrived, and the run page takes it over where it stands', async () => {
  const page = await openPage(lab.browser, { viewport: SIZES[0] });
  // The run page's module is held back until the opening has been played.
  const held = [];
  await page.route('**/rate-limit-lab-first_bg.wasm', (route) => held.push(route));
  await page.goto(lab.server.base);
  const play = page.locator('#rll-opening [data-testid="opening-play"]');
  await play.waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-testid="opening-play"]').disabled);
  assert.equal(await page.locator('[data-testid="app"]').count(), 0, 'the run page has not mounted');
  assert.ok(held.length <= 1, 'the run page\'s module was asked for once at most');
  // Stepped from the end, the clock goes back event by event.
  const last = Math.max(...instants(without), ...instants(withKey));
  assert.equal(await page.textContent('[data-testid="opening-clock"]'), ms(last));
  await page.click('[data-testid="opening-play"]');
  await page.waitForFunction((t) => document.querySelector('[data-testid="opening-clock"]').textContent === t, ms(without.attempts[0].sentAtUs));
  await page.click('[data-testid="opening-play"]');
  await page.click('[aria-label="Next event"]');
  assert.equal(await page.textContent('[data-testid="opening-clock"]'), ms(without.attempts[0].client.atUs));
  const style = await page.getAttribute('[data-slot="opening-panels"]', 'style');
  // What needs the whole run waits for it.
  assert.equal(await page.locator('[data-testid="opening-zoom"]').isDisabled(), true);
  // The run page's module arrives: the section moves into the page as it stands, and the
  // zoom comes alive.
  while (held.length === 0) await new Promise((r) => setTimeout(r, 50));
  await held[0].continue();
  await page.locator('[data-testid="app"] [data-testid="opening"]').waitFor();
  assert.equal(await page.textContent('[data-testid="opening-clock"]'), ms(without.attempts[0].client.atUs));
  assert.equal(await page.getAttribute('[data-slot="opening-panels"]', 'style'), style);
  assert.equal(await page.locator('[data-testid="opening"]').count(), 1);
  await page.waitForFunction(() => !document.querySelector('[data-testid="opening-zoom"]').disabled);
  // The player still answers, inside the page.
  await page.click('[aria-label="Next event"]');
  assert.equal(await page.textContent('[data-testid="opening-clock"]'), ms(without.attempts[0].provider.atUs));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
