// The code view shows the core's own strategy files, fetched from next to the page, with
// each strategy's one change marked, and equivalent configurations in other libraries from
// one fetched data file; none of their text is in the page's module.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useLab, openPage, waitForState, screenshotPath, ROOT, DIST } from './harness.mjs';

const lab = useLab(before, after);
const STRATEGY_DIR = path.join(ROOT, 'crates', 'sim', 'src', 'strategy');
// The page layer's tests read this very file (crates/page/src/run/equivalents.rs).
const EQUIVALENTS = path.join(ROOT, 'crates', 'page', 'src', 'run', 'equivalents.txt');

test('the build serves the strategy folder byte for byte', () => {
  const files = fs.readdirSync(STRATEGY_DIR).filter((f) => f.endsWith('.rs'));
  assert.ok(files.includes('charge.rs') && files.includes('keyed.rs'));
  for (const f of files) {
    const served = fs.readFileSync(path.join(DIST, 'source', 'strategy', f));
    assert.ok(served.equals(fs.readFileSync(path.join(STRATEGY_DIR, f))), f);
  }
});

test('the build serves the equivalents file byte for byte', () => {
  const served = fs.readFileSync(path.join(DIST, 'source', 'equivalents.txt'));
  assert.ok(served.equals(fs.readFileSync(EQUIVALENTS)));
});

test('the equivalents show Python, Go and Java rows configured with the run\'s numbers, and fit a phone', async () => {
  for (const [name, options] of [
    ['equivalents-desktop.png', { viewport: { width: 1366, height: 768 } }],
    ['equivalents-phone.png', { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true }],
  ]) {
    const page = await openPage(lab.browser, options);
    await page.goto(`${lab.server.base}?strategy=budget&attempts=4&seed=1&speed=instant`);
    await waitForState(page, 'done');
    const list = page.locator('[data-testid="code-view"] [data-testid="equivalents"]');
    await list.locator('li').first().waitFor();
    const view = await page.locator('[data-testid="code-view"]').textContent();
    assert.ok(view.includes('An equivalent configuration in a library you may know (not the code that ran)'), view);
    const rows = await list.locator('li').evaluateAll((lis) =>
      lis.map((li) => ({
        lang: li.dataset.lang,
        lib: li.querySelector('.rll-lib').textContent,
        code: li.querySelector('code').textContent,
      })),
    );
    const langs = rows.map((r) => r.lang);
    for (const lang of ['Python', 'Go', 'Java']) assert.ok(langs.includes(lang), JSON.stringify(langs));
    // Grouped by language: Python, then Go, then Java, then the rest.
    const firsts = ['Python', 'Go', 'Java'].map((l) => langs.indexOf(l));
    assert.deepEqual([...firsts].sort((a, b) => a - b), firsts, JSON.stringify(langs));
    for (const r of rows) assert.match(r.lib, /\s\S*\d/, `${r.lib} names a version`);
    const row = (lib) => rows.find((r) => r.lib.startsWith(lib))?.code ?? '';
    // attempts=4 from the address: 4 attempts, 3 retries.
    assert.ok(row('urllib3').includes('Retry(total=3'), row('urllib3'));
    assert.ok(row('go-retryablehttp').includes('c.RetryMax = 3'), row('go-retryablehttp'));
    assert.ok(row('aws-sdk-go-v2').includes('o.MaxAttempts = 4'), row('aws-sdk-go-v2'));
    assert.ok(row('AWS SDK for Java').includes('.maxAttempts(4)'), row('AWS SDK for Java'));
    assert.ok(!rows.some((r) => r.code.includes('{{')), 'every placeholder is filled');

    // Another strategy re-renders from the one fetched file, with its own rows.
    await page.click('button[data-strategy="pool"]');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="equivalents"]')?.textContent.includes('maxConcurrentCalls('),
    );
    // The page itself never scrolls sideways: a long line scrolls inside its own box.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name}: the page scrolls sideways by ${overflow}px`);
    await page.click('button[data-strategy="budget"]');
    // The view is drawn again when the strategy's own file arrives: wait for that
    // (budget.rs on screen, its rows back) before scrolling to it.
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="code-view"] code[data-file$="budget.rs"] .rll-line') &&
      document.querySelector('[data-testid="equivalents"]')?.textContent.includes('Retry(total=3'),
    );
    await page.locator('[data-testid="equivalents"]').scrollIntoViewIfNeeded();
    await page.locator('[data-testid="code-view"] .rll-equivalent').screenshot({ path: screenshotPath(name) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('without the equivalents file the code view says so in a sentence', async () => {
  const page = await openPage(lab.browser);
  await page.route('**/source/equivalents.txt', (route) => route.fulfill({ status: 404, body: 'no' }));
  await page.goto(`${lab.server.base}?strategy=retry&seed=1&speed=instant`);
  await waitForState(page, 'done');
  const alert = page.locator('[data-testid="code-view"] .rll-equivalent [role="alert"]');
  await alert.waitFor();
  const text = await alert.textContent();
  assert.match(text, /The equivalents are not shown: Could not load .*source\/equivalents\.txt\. \(HTTP 404\)/, text);
  await page.context().close();
});

test('the code view shows the file the core compiled, its change marked, and the shared loop on demand', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=instant`);
  await waitForState(page, 'done');
  const code = page.locator('[data-testid="code-view"] code[data-file="crates/sim/src/strategy/keyed.rs"]');
  await code.locator('.rll-line[data-changed]').first().waitFor();
  const lines = await code.locator('.rll-line').allTextContents();
  const file = fs.readFileSync(path.join(STRATEGY_DIR, 'keyed.rs'), 'utf8');
  assert.equal(lines.join(''), file, 'every line of the file, in order');
  const changed = await code.locator('.rll-line[data-changed="true"]').allTextContents();
  assert.ok(changed.length >= 1 && changed.some((l) => l.includes('key')), JSON.stringify(changed));

  // Another strategy: its own file, fetched when picked.
  await page.click('button[data-strategy="naive"]');
  const naive = page.locator('[data-testid="code-view"] code[data-file="crates/sim/src/strategy/naive.rs"]');
  await naive.locator('.rll-line[data-changed]').first().waitFor();
  assert.equal(await naive.locator('.rll-line[data-changed="true"]').count(), 0, 'the first strategy changes nothing');

  // The shared loop arrives when its details open.
  await page.click('[data-testid="code-view"] details summary');
  // The file's own lines carry data-changed; the line that says it is loading does not.
  const shared = page.locator('[data-testid="code-view"] details .rll-line[data-changed]');
  await shared.first().waitFor();
  const loop = (await shared.allTextContents()).join('');
  assert.ok(loop.includes('pub struct ChargeTask'), loop.slice(0, 200));
  assert.ok(!loop.includes('#[cfg(test)]'), 'the tests are left out');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the page module holds none of the strategies\' text', () => {
  const wasm = fs.readFileSync(path.join(DIST, 'rate-limit-lab_bg.wasm'));
  for (const needle of ['pub struct ChargeTask', 'the loop every strategy shares.', 'One key per charge', 'stripe.charges.create', 'IntervalFunction.ofExponentialBackoff']) {
    assert.equal(wasm.indexOf(Buffer.from(needle)), -1, needle);
  }
});
