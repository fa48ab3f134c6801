// The Rust table of pages (crates/page/src/query/page.rs; tests/browser/fixtures/pages.json,
// which a Rust test holds equal to it) against what the loader and the page files do: each
// page's own file opens its page, with no query and with a query that names no page; the
// bare address given a page's link opens that page's file; another page's file given it
// does the same, except that the bare address keeps a run page's link, in its own module
// (the run page's with the opening); the bare address opens that module on the opening
// story; and the walk's link opens the walk's file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useLab, openPage, unstyledRules, DIST, FIXTURES } from './harness.mjs';

const lab = useLab(before, after);
const TABLE = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'pages.json'), 'utf8'));

/** Opens `link` in a fresh context; returns the module whose `.wasm` came last and the
 * file the address ended on, once the lab has mounted. */
async function opened(link) {
  const page = await openPage(lab.browser);
  const modules = [];
  page.on('request', (r) => {
    const m = r.url().match(/([\w-]+)_bg\.wasm$/);
    // The simulation worker's module is no page's: the sweep page loads it once idle.
    if (m && m[1] !== 'rate-limit-lab-sim') modules.push(m[1]);
  });
  await page.goto(lab.server.base + link);
  await page.waitForSelector('[data-testid="app"], [data-testid="widget"]', { timeout: 20_000 });
  const file = new URL(page.url()).pathname.split('/').pop() || 'index.html';
  const errors = page.errors;
  await page.context().close();
  return { module: modules.at(-1), file, errors };
}

const query = (key) => (key ? `${key[0]}=${key[1]}&seed=3` : 'seed=3');

test('each page file opens its own page, with no query and with a query that names no page', async () => {
  for (const { module, file } of TABLE.pages) {
    for (const link of [file, `${file}?seed=3`]) {
      const got = await opened(link);
      assert.equal(got.module, module, link);
      assert.equal(got.file, file, link);
      assert.deepEqual(got.errors, [], link);
    }
  }
});

test('the bare address and every other page file, given a page link, open that page file', async () => {
  const other = (file) => TABLE.pages.find((p) => p.file !== file && p.key).file;
  for (const { module, file, key } of TABLE.pages) {
    // The run page has no key of its own: another page's file given a link that asks for
    // no page shows itself (the first test), so only the bare address is asked for it,
    // and keeps it in its own module, which holds the run page.
    for (const start of key ? ['', other(file)] : ['']) {
      const link = `${start}?${query(key)}`;
      const got = await opened(link);
      const want = key ? { module, file } : TABLE.first;
      assert.equal(got.module, want.module, link);
      assert.equal(got.file, want.file, link);
    }
  }
});

test('the bare address opens its own module, on the opening story; the walk\'s link, from any file, opens the walk\'s file', async () => {
  const got = await opened('');
  assert.equal(got.module, TABLE.first.module);
  assert.equal(got.file, TABLE.first.file);
  for (const link of ['?tour=1', 'run.html?tour=1&step=2', `${TABLE.walk.file}?tour=1`, TABLE.walk.file]) {
    const walk = await opened(link);
    assert.equal(walk.module, TABLE.walk.module, link);
    assert.equal(walk.file, TABLE.walk.file, link);
    assert.deepEqual(walk.errors, [], link);
  }
});

test('a release build gives each page file its own stylesheet, in the file: main.css less rules, none that its page shows', async (t) => {
  const files = [...TABLE.pages, TABLE.first, TABLE.walk];
  if (!fs.readFileSync(path.join(DIST, TABLE.first.file), 'utf8').includes('<style data-stylesheet=')) {
    t.skip('a debug build: every page links main.css');
    return;
  }
  const page = await openPage(lab.browser);
  const rules = (css) =>
    page.evaluate((text) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      return sheet.cssRules.length;
    }, css);
  await page.goto(lab.server.base + 'run.html');
  const whole = await rules(fs.readFileSync(path.join(DIST, 'main.css'), 'utf8'));
  for (const { file, module } of files) {
    const html = fs.readFileSync(path.join(DIST, file), 'utf8');
    // No stylesheet to fetch before the page can show: its own rules are in its file.
    assert.deepEqual([...html.matchAll(/<link rel="stylesheet"/g)], [], `${file} links no stylesheet`);
    const styles = [...html.matchAll(/<style data-stylesheet="([a-z-]+)">([\s\S]*?)<\/style>/g)];
    assert.deepEqual(styles.map((m) => m[1]), [module], file);
    const own = await rules(styles[0][2]);
    assert.ok(own > 0 && own < whole, `${file}: ${own} rules of main.css's ${whole}`);
    await page.goto(lab.server.base + file);
    await page.waitForSelector('[data-testid="app"], [data-testid="widget"]', { timeout: 20_000 });
    assert.deepEqual(await unstyledRules(page), [], file);
  }
  await page.context().close();
});
