// What a reader on a slow link sees before the lab has started, and that the module's
// download does not wait for the JS glue. Timings are a benchmark (scripts/ready.mjs);
// these check only what cannot be noisy: order, words and layout.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { DIST, useLab, openPage, waitForState } from './harness.mjs';
import { serveDist } from '../../scripts/lab-server.mjs';

const lab = useLab(before, after);

const PAGES = [
  ['', 'A thousand charges, one imperfect API'],
  ['?section=limits', 'Publishing a limit'],
  ['?section=headers', 'The headers between them'],
];

test('with the module blocked, each page shows its heading and says the lab is starting, then why it cannot', async () => {
  for (const [query, title] of PAGES) {
    const page = await openPage(lab.browser);
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route('**/*_bg.wasm', async (route) => {
      await held;
      await route.fulfill({ status: 404, body: 'gone' });
    });
    await page.goto(`${lab.server.base}${query}`);
    // While the module is on its way: the heading and the starting line are there.
    await page.waitForSelector('#rll-shell h1');
    assert.equal(await page.textContent('#rll-shell h1'), title, query);
    assert.ok((await page.textContent('#rll-shell .rll-lede')).length > 40, query);
    assert.match(await page.textContent('#rll-loading'), /starting/, query);
    release();
    const alert = page.locator('#rll-loading[role="alert"]');
    await alert.waitFor();
    assert.match(await alert.textContent(), /could not start/, query);
    assert.equal(await page.textContent('#rll-shell h1'), title, 'the heading stays');
    await page.context().close();
  }
});

test('the lab takes over from the shell without moving its heading', async () => {
  for (const [query, title] of PAGES) {
    const blocked = await openPage(lab.browser);
    await blocked.route('**/*_bg.wasm', () => {}); // never answered: the shell stays
    await blocked.goto(`${lab.server.base}${query}`);
    await blocked.waitForSelector('#rll-shell h1');
    const before = await blocked.locator('#rll-shell h1').boundingBox();
    await blocked.context().close();

    const page = await openPage(lab.browser);
    await page.goto(`${lab.server.base}${query}`);
    await page.waitForSelector('[data-testid="app"]');
    assert.equal(await page.locator('#rll-shell').count(), 0, 'the shell is gone');
    const h1 = page.locator('[data-testid="app"] h1');
    assert.equal(await h1.textContent(), title);
    const after = await h1.boundingBox();
    assert.deepEqual(
      [Math.round(after.x), Math.round(after.y), Math.round(after.width)],
      [Math.round(before.x), Math.round(before.y), Math.round(before.width)],
      `${query || 'run'}: the heading keeps its place`,
    );
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('at the bare address the shell holds the sections and the provider\'s rules, where the app then shows them', async () => {
  for (const viewport of [{ width: 375, height: 740 }, { width: 1366, height: 768 }]) {
    const blocked = await openPage(lab.browser, { viewport });
    await blocked.route('**/*_bg.wasm', () => {}); // never answered: the shell stays
    await blocked.goto(lab.server.base);
    await blocked.waitForSelector('#rll-shell h1');
    assert.equal(await blocked.locator('#rll-shell .rll-sections a').count(), 3);
    assert.equal(await blocked.locator('#rll-shell .rll-rules li').count(), 6);
    assert.match(await blocked.textContent('#rll-shell .rll-intro'), /1,000 customers/);
    assert.match(await blocked.textContent('#rll-loading'), /starting/);
    const place = (page, root) => page.evaluate((root) => ['.rll-sections', '.rll-intro h2', '.rll-rules li:last-child'].map((sel) => {
      const r = document.querySelector(`${root} ${sel}`).getBoundingClientRect();
      return [sel, Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)].join(' ');
    }), root);
    const before = await place(blocked, '#rll-shell');
    await blocked.context().close();

    const page = await openPage(lab.browser, { viewport });
    await page.goto(lab.server.base);
    await page.waitForSelector('[data-testid="app"] .rll-intro');
    assert.equal(await page.locator('#rll-shell').count(), 0, 'the shell is gone');
    assert.deepEqual(await place(page, '[data-testid="app"]'), before, `${viewport.width} px: nothing moves when the app takes over`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  // A page's own file, and any link with a query, may have other numbers: no rules in its shell.
  for (const link of ['run.html?seed=7', '?tour=1&customers=50']) {
    const blocked = await openPage(lab.browser);
    await blocked.route('**/*_bg.wasm', () => {});
    await blocked.goto(lab.server.base + link);
    await blocked.waitForSelector('#rll-shell h1');
    await blocked.waitForFunction(() => !document.getElementById('rll-shell-intro'));
    assert.equal(await blocked.locator('#rll-shell .rll-rules, #rll-shell .rll-sections').count(), 0, link);
    await blocked.context().close();
  }
});

/**
 * Holds back the responses to `held` (a route pattern) until the module `module` has been
 * requested, and records the order: `what requested`, `wasm requested`, `what answered`.
 * If the module were only asked for after the held file, that file would wait forever: a
 * timeout releases it after 5 s, so a test fails with the order instead of hanging.
 */
async function holdUntilModule(page, held, what, module) {
  const order = [];
  let requests = 0;
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  const timer = setTimeout(release, 5_000);
  await page.route(held, async (route) => {
    order.push(`${what} requested`);
    await released;
    order.push(`${what} answered`);
    await route.continue();
  });
  page.on('request', (r) => {
    if (r.url().endsWith(`${module}_bg.wasm`)) {
      requests += 1;
      order.push('wasm requested');
      release();
    }
  });
  return {
    order,
    requests: () => requests,
    /** True if the module was asked for before the held file was answered. */
    moduleFirst() {
      clearTimeout(timer);
      const wasm = order.indexOf('wasm requested');
      return wasm >= 0 && wasm < order.indexOf(`${what} answered`);
    },
  };
}

test('the module download starts before the JS glue has arrived', async () => {
  const page = await openPage(lab.browser);
  const held = await holdUntilModule(page, '**/rate-limit-lab.js', 'glue', 'rate-limit-lab');
  await page.goto(`${lab.server.base}run.html?seed=3`);
  await waitForState(page, 'idle');
  assert.ok(held.moduleFirst(), held.order.join(' → '));
  await page.context().close();
});

// Each page's own file, the module its head asks for, and what shows once it has started.
const ENTRY_PAGES = [
  // The run page's: its first module, the page down to its stage.
  ['run.html?strategy=keyed&seed=7&speed=instant', 'rate-limit-lab-stage', '[data-testid="app"][data-run-state="done"]'],
  ['compare.html?view=compare&seed=7', 'rate-limit-lab-compare', '[data-testid="compare"][data-state="done"]'],
  ['sweep.html?view=sweep', 'rate-limit-lab-sweep', '[data-testid="sweep-run"]'],
  ['matrix.html?view=matrix&seed=1', 'rate-limit-lab-matrix', '[data-cell] a'],
  ['limits.html?section=limits', 'rate-limit-lab-limits', 'button[data-experiment]'],
  ['headers.html?section=headers', 'rate-limit-lab-headers', '[data-testid="reader-block"]'],
  ['client.html?view=client&seed=7', 'rate-limit-lab-client', '[data-testid="client-run"]'],
  ['embed.html?embed=1&strategy=pool&seed=2&speed=instant', 'rate-limit-lab-embed', '[data-testid="widget"][data-run-state="done"]'],
  ['walk.html?tour=1', 'rate-limit-lab-tour', '[data-testid="tour"]'],
  // The lab's bare address: the opening's player first (the run page's module follows
  // it, asked for by the loader), on the opening story.
  ['', 'rate-limit-lab-opening', '[data-testid="app"] [data-testid="opening"]'],
];

test('each page\'s own file asks for its module in its head: the download starts before the loader has arrived, once', async () => {
  for (const [link, module, started] of ENTRY_PAGES) {
    const page = await openPage(lab.browser);
    const held = await holdUntilModule(page, '**/loader.js', 'loader', module);
    await page.goto(`${lab.server.base}${link}`);
    await page.waitForSelector(started);
    assert.ok(held.moduleFirst(), `${link}: ${held.order.join(' → ')}`);
    assert.equal(held.requests(), 1, `${link}: the loader takes the response the hint started, not a second download`);
    assert.deepEqual(page.errors, [], link);
    await page.context().close();
  }
});

test('a page file given another page\'s link opens that page\'s own file, with the same query', async () => {
  for (const [link, file, started] of [
    ['?view=compare&seed=7#x', 'compare.html', '[data-testid="compare"][data-state="done"]'],
    ['walk.html?view=run&strategy=keyed&seed=7&speed=instant', 'run.html', '[data-testid="app"][data-run-state="done"]'],
    ['run.html?section=limits', 'limits.html', 'button[data-experiment]'],
    ['compare.html?tour=1', 'walk.html', '[data-testid="tour"][data-step="1"]'],
  ]) {
    const page = await openPage(lab.browser);
    await page.goto(`${lab.server.base}${link}`);
    await page.waitForSelector(started);
    const query = link.slice(link.indexOf('?'));
    const at = await page.evaluate(() => location.pathname.split('/').pop() + location.search + location.hash);
    // The app may then write its own query; what the loader opened is the file, with the link's query.
    assert.ok(at.startsWith(file + '?'), `${link}: ${at}`);
    const wanted = new URLSearchParams(query.split('#')[0]);
    const now = new URLSearchParams(at.slice(file.length).split('#')[0]);
    for (const [key, value] of wanted) assert.equal(now.get(key), value, `${link}: ${key} in ${at}`);
    assert.deepEqual(page.errors, [], link);
    await page.context().close();
  }
});

test('the lab\'s links open each page through its own file', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?seed=5`);
  await waitForState(page, 'idle');
  const hrefs = await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href')));
  for (const [file, key] of [['compare.html?', 'view=compare'], ['sweep.html?', 'view=sweep'], ['limits.html?', 'section=limits'], ['headers.html?', 'section=headers'], ['client.html?', 'view=client']]) {
    const link = hrefs.find((h) => h.includes(key));
    assert.ok(link?.startsWith(file) && link.includes('seed=5'), `${key}: ${link}`);
  }
  await page.goto(`${lab.server.base}compare.html?view=compare&seed=5`);
  await page.waitForSelector('[data-testid="compare"][data-state="done"]');
  const run = await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href')).find((h) => h.includes('strategy=')));
  assert.ok(run?.startsWith('run.html?'), `a run opens through run.html: ${run}`);
  await page.context().close();
});

test('the release build ships every page, module, glue, loader and stylesheet precompressed, and `ratelab serve --dist` sends those bytes', async () => {
  const shipped = fs.readdirSync(DIST).filter((f) => /\.(wasm|js|css|html)$/.test(f));
  assert.ok(shipped.filter((f) => f.endsWith('.wasm')).length >= 8, shipped.join(' '));
  assert.ok(shipped.filter((f) => f.endsWith('.html')).length >= 8, shipped.join(' '));
  const server = await serveDist(DIST);
  const port = new URL(server.base).port;
  try {
    for (const name of shipped) {
      const file = fs.readFileSync(path.join(DIST, name));
      const gz = fs.readFileSync(path.join(DIST, `${name}.gz`));
      assert.ok(zlib.gunzipSync(gz).equals(file), `${name}.gz gives back ${name}`);
      // zopfli, not gzip -9: smaller, or the build step is doing nothing.
      if (file.length > 10_000) assert.ok(gz.length < zlib.gzipSync(file, { level: 9 }).length, name);
      const sent = await new Promise((resolve, reject) => {
        http.get(`http://127.0.0.1:${port}/${name}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const parts = [];
          res.on('data', (c) => parts.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(parts) }));
        }).on('error', reject);
      });
      assert.equal(sent.encoding, 'gzip', name);
      assert.ok(sent.body.equals(gz), `${name}: the server sends the build's .gz`);
    }
  } finally {
    await server.close();
  }
});

// Indexing a `str` by a range, or searching one for a `&str`, links core's "not a char
// boundary" panic into a module, and with it a `char`'s debug formatting and the Unicode
// tables that formatting reads: 4.3–5.1 KB of each page's module as shipped
// (docs/sizes-and-speeds.md, "No char-boundary panic"). Code that reaches a module cuts
// text with `get`, `char` patterns and `page::shared::cut` instead.
// The sandbox's module is no page's: it reads a charge's JSON body as `ratelab serve` does
// (serde_json), is built for speed, and is fetched only on the view that runs a reader's
// own client, never on a first load.
test('no module of a release build carries core\'s char-boundary panic', (t) => {
  const modules = fs.readdirSync(DIST).filter((f) => f.endsWith('_bg.wasm') && f !== 'rate-limit-lab-sandbox_bg.wasm');
  if (!modules.every((m) => fs.existsSync(path.join(DIST, `${m}.gz`)))) {
    t.skip('a debug build: its modules keep what a release build leaves out');
    return;
  }
  assert.ok(modules.length >= 8, modules.join(' '));
  const carrying = modules.filter((m) =>
    fs.readFileSync(path.join(DIST, m)).includes('is not a char boundary'),
  );
  assert.deepEqual(carrying, [], 'these modules index a str, or search one for a &str, somewhere');
});
