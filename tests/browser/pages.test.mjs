// The lab is one WebAssembly module per page (docs/sizes-and-speeds.md): a link downloads only
// its page's module, and the tabs between pages are links that carry the seed and the
// numbers being edited.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState, assertAddress } from './harness.mjs';

const lab = useLab(before, after);

test('the bare address downloads the opening\'s player, then its own module (the run page and the opening, no walk), and opens on the opening story; the run page\'s own file downloads its stage\'s, then the run page\'s', async () => {
  const page = await openPage(lab.browser);
  await page.goto(lab.server.base);
  await page.waitForSelector('[data-testid="app"] [data-testid="opening"]');
  assert.deepEqual(await modules(page), ['rate-limit-lab-opening_bg.wasm', 'rate-limit-lab-first_bg.wasm']);
  assert.equal(await page.locator('[data-testid="tour"]').count(), 0);
  // The run page's own file, with no query, downloads its first module, the page down
  // to its stage, then the run page's.
  await page.goto(lab.server.base + 'run.html');
  await waitForState(page, 'idle');
  await page.waitForSelector('[data-testid="code-view"]');
  assert.deepEqual(await modules(page), ['rate-limit-lab-stage_bg.wasm', 'rate-limit-lab_bg.wasm']);
  assert.equal(await page.locator('[data-testid="tour"], [data-testid="opening"]').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** The .wasm files this page has downloaded, by name. */
function modules(page) {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname.split('/').pop())
      .filter((n) => n.endsWith('.wasm')),
  );
}

for (const [query, module, ready] of [
  // The bare address opens its own module, on the opening story; tour=1 opens the walk's
  // (in its own file); a run's link keeps the bare address's module, which is the run page's
  // with the opening (shown only with no query).
  ['', ['rate-limit-lab-opening', 'rate-limit-lab-first'], '[data-testid="app"] [data-testid="opening"]'],
  ['?tour=1&step=2', 'rate-limit-lab-tour', '[data-testid="tour"]'],
  // (The bare address's head asks for the opening's player before anything can read the
  // query: an old link with a run's query downloads it for nothing, docs/sizes-and-speeds.md.)
  ['?seed=7', ['rate-limit-lab-opening', 'rate-limit-lab-first'], '[data-testid="app"][data-run-state="idle"]'],
  ['?strategy=keyed&seed=3&speed=instant', ['rate-limit-lab-opening', 'rate-limit-lab-first'], '[data-testid="app"][data-run-state="done"]'],
  ['run.html?strategy=keyed&seed=3&speed=instant', ['rate-limit-lab-stage', 'rate-limit-lab'], '[data-testid="app"][data-run-state="done"] [data-testid="code-view"]'],
  ['?view=compare&seed=2', 'rate-limit-lab-compare', '[data-testid="compare"]'],
  ['?view=sweep', 'rate-limit-lab-sweep', '[data-testid="sweep"]'],
  ['?section=limits&experiment=herd', 'rate-limit-lab-limits', '[data-testid="limits"][data-state="done"]'],
  ['?section=headers&seed=4', 'rate-limit-lab-headers', '[data-testid="response-headers"] [data-header]'],
  ['?embed=1&strategy=pool&seed=2&speed=instant', 'rate-limit-lab-embed', '[data-testid="widget"][data-run-state="done"]'],
  // A value the page cannot read falls back to the default page, in the loader too.
  ['?view=Compare', ['rate-limit-lab-stage', 'rate-limit-lab'], 'body:has([data-testid="query-problems"]) [data-testid="code-view"]'],
  ['?section=limits&section=charges', 'rate-limit-lab-limits', '[data-testid="limits"]'],
]) {
  const wanted = [module].flat();
  test(`'${query || '(no query)'}' downloads ${wanted.join(' then ')} and nothing else`, async () => {
    const page = await openPage(lab.browser);
    await page.goto(lab.server.base + query);
    await page.waitForSelector(ready);
    assert.deepEqual(await modules(page), wanted.map((m) => `${m}_bg.wasm`));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

/** Clicks `selector`, a link to the page on screen, and proves the page stayed: the click
 * reached the page and its handler prevented the link's default (so the browser cannot
 * follow it), the window is the same one, and the main frame did not navigate. */
async function clickStaysPut(page, selector) {
  let navigations = 0;
  const count = (frame) => {
    if (frame === page.mainFrame()) navigations++;
  };
  page.on('framenavigated', count);
  await page.evaluate(() => {
    window.__samePage = true;
    // Read once every handler of this click has run.
    window.__clicked = new Promise((resolve) =>
      document.addEventListener('click', (e) => setTimeout(() => resolve(e.defaultPrevented)), { capture: true, once: true }),
    );
  });
  await page.click(selector);
  assert.equal(await page.evaluate(() => window.__clicked), true, `the click on ${selector} was handled and the link not followed`);
  assert.equal(await page.evaluate(() => window.__samePage), true, `${selector}: the same window`);
  page.off('framenavigated', count);
  assert.equal(navigations, 0, `${selector}: no navigation`);
}

/** Resolves after two animation frames: a loop started on load has run a frame by then. */
function twoFrames(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

test('the tabs lead from page to page, carrying the seed and the numbers', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?seed=5&maxInflight=8`);
  await waitForState(page, 'idle');

  // The section on screen does not reload itself.
  await clickStaysPut(page, 'a[data-section="charges"]');

  await page.click('a[data-view="compare"]');
  await page.waitForSelector('[data-testid="compare"]');
  await assertAddress(page, { view: 'compare', seed: '5', maxInflight: '8' });
  assert.match(await page.textContent('.rll-intro'), /At most 8 requests in flight/);
  assert.deepEqual(await modules(page), ['rate-limit-lab-compare_bg.wasm']);

  // The view on screen does not reload itself either.
  await clickStaysPut(page, 'a[data-view="compare"]');

  // A link to the sweep names nothing to sweep, so the sweep waits for the reader.
  await page.click('a[data-view="sweep"]');
  await page.waitForSelector('[data-testid="sweep"][data-state="idle"]');
  await assertAddress(page, { view: 'sweep', seed: '5', maxInflight: '8' });
  assert.deepEqual(await modules(page), ['rate-limit-lab-sweep_bg.wasm']);
  await twoFrames(page);
  assert.equal(await page.getAttribute('[data-testid="sweep"]', 'data-state'), 'idle');

  await page.click('a[data-section="limits"]');
  await page.waitForSelector('[data-testid="limits"]');
  await assertAddress(page, { section: 'limits', seed: '5', maxInflight: '8' });
  assert.equal(await page.getAttribute('[data-section="limits"]', 'aria-current'), 'page');

  await page.click('a[data-section="headers"]');
  await page.waitForSelector('[data-testid="response-headers"] [data-header]');
  await assertAddress(page, { section: 'headers', seed: '5', maxInflight: '8' });
  assert.deepEqual(await modules(page), ['rate-limit-lab-headers_bg.wasm']);

  await page.click('a[data-section="charges"]');
  await waitForState(page, 'idle');
  assert.equal(await page.inputValue('[data-testid="seed"]'), '5');
  assert.deepEqual(page.errors, []);

  // Back goes back to the page before.
  await page.goBack();
  await page.waitForSelector('[data-testid="response-headers"]');
  await page.context().close();
});

test('the page says it is loading, then gives way to the lab, or says why it cannot', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?seed=2`);
  await waitForState(page, 'idle');
  assert.equal(await page.locator('#rll-loading').count(), 0, 'the loading line is gone');
  await page.context().close();

  // A module that cannot be fetched leaves a message, not a blank page.
  const broken = await openPage(lab.browser);
  await broken.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await broken.goto(`${lab.server.base}?section=limits`);
  const alert = broken.locator('#rll-loading[role="alert"]');
  await alert.waitFor();
  assert.match(await alert.textContent(), /could not start/);
  await broken.context().close();
});
