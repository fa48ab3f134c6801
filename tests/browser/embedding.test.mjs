// Sharing and embedding: a sub-path, the iframe with its height, the script widgets in
// a hostile blog, off-screen pause, reduced motion, parameters and exports.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, openPage, waitForState, readStats, digits, cli, cliText, FIXTURES, DIST } from './harness.mjs';
import { serveDist } from '../../scripts/lab-server.mjs';

let lab; // the build served under a blog's sub-path, beside the fixture pages
let other; // another origin, for the iframe's parent page
let browser;
before(async () => {
  lab = await serve(DIST, '/blog/lab/', {
    '/blog/post.html': path.join(FIXTURES, 'blog.html'),
    '/blog/fallback.html': path.join(FIXTURES, 'blog-fallback.html'),
  });
  other = await serve(FIXTURES, '/');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await lab?.close();
  await other?.close();
});

const origin = () => new URL(lab.base).origin;

test('the build works from a sub-path (/blog/lab/)', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}?strategy=keyed&seed=7&speed=instant`);
  await waitForState(page, 'done');
  const expected = cli(['charges', '--strategy', 'keyed', '--seed', '7']);
  assert.equal((await readStats(page)).requests, String(expected.requests));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a widget on another origin runs from `ratelab serve --dist`, which sends the files with CORS', async () => {
  const server = await serveDist(DIST);
  try {
    const page = await openPage(browser);
    await page.goto(`${other.base}cross-origin-blog.html?lab=${encodeURIComponent(server.base)}`);
    const widget = page.locator('#w1 [data-testid="widget"][data-run-state="done"]');
    await widget.waitFor({ timeout: 20_000 });
    const expected = cli(['charges', '--strategy', 'keyed', '--seed', '7']);
    assert.equal(digits(await page.locator('#w1 [data-stat="requests"]').textContent()), String(expected.requests));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await server.close();
  }
});

test('an iframe embed is compact, links to the full lab, and sizes its frame by postMessage', async () => {
  const page = await openPage(browser, { viewport: { width: 900, height: 800 } });
  await page.goto(`${other.base}frame-parent.html?lab=${encodeURIComponent(lab.base)}`);
  const frame = page.frameLocator('#lab');
  await frame.locator('[data-testid="widget"][data-run-state="done"]').waitFor();
  const expected = cli(['charges', '--strategy', 'pool', '--seed', '3']);
  // No counters named: the ones that matter for the pool, and its picture.
  assert.deepEqual(
    await frame.locator('[data-testid="key-counters"] [data-stat]').evaluateAll((els) => els.map((e) => e.dataset.stat)),
    ['customersCharged', 'duplicates', 'inProgressConflicts', 'elapsedMs'],
  );
  for (const field of ['customersCharged', 'duplicates', 'inProgressConflicts', 'elapsedMs']) {
    assert.equal(digits(await frame.locator(`[data-stat="${field}"]`).textContent()), String(expected[field]), field);
  }
  assert.equal(await frame.locator('[data-testid="timeline"] canvas').count(), 1, 'a timeline in the embed');
  assert.match(await frame.locator('[data-testid="summary"]').textContent(), /^All \d+ valid customers charged exactly once/);
  assert.equal(await frame.locator('.rll-header').count(), 0, 'no page chrome in the embed');
  const href = await frame.locator('.rll-widget-foot a').getAttribute('href');
  assert.ok(href.startsWith(lab.base) && !href.includes('embed=1') && href.includes('strategy=pool'), href);
  await page.waitForFunction(() => parseInt(document.getElementById('lab').style.height, 10) > 300);
  // The frame is as tall as what it shows: the widget's bottom edge is at the frame's
  // bottom, give or take the widget's own margin, with no band of empty page below it.
  const frameHeight = await page.evaluate(() => parseInt(document.getElementById('lab').style.height, 10));
  const widgetBottom = await frame.locator('[data-testid="widget"]').evaluate((w) => w.getBoundingClientRect().bottom);
  assert.ok(
    Math.abs(frameHeight - widgetBottom) <= 24,
    `the frame is ${frameHeight}px tall and the widget ends at ${widgetBottom}px`,
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a widget host says the lab is loading, and why it could not start, with a link', async () => {
  const page = await openPage(browser, { viewport: { width: 1000, height: 900 } });
  // Hold the module's request, then refuse it, as a blog whose host lost the file would.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/rate-limit-lab-embed_bg.wasm', async (route) => {
    await held;
    await route.fulfill({ status: 404, body: 'gone' });
  });
  await page.goto(`${origin()}/blog/fallback.html`);
  const empty = page.locator('#empty');
  await page.waitForFunction(() => document.getElementById('empty').textContent.trim() !== '');
  assert.match(await empty.textContent(), /loading/);
  assert.equal(await page.locator('#own').textContent(), 'Our own words about the lab.');
  release();
  await page.waitForFunction(() => /could not start/.test(document.getElementById('empty').textContent));
  assert.equal(await empty.locator('a').getAttribute('href'), `${origin()}/blog/lab/`);
  assert.equal(await page.locator('#own').textContent(), 'Our own words about the lab.');
  assert.equal(await empty.evaluate((h) => h.shadowRoot), null);
  await page.context().close();
});

test('script widgets mount in a hostile blog, run independently, and styles stay apart', async () => {
  const page = await openPage(browser, { viewport: { width: 1000, height: 900 } });
  await page.goto(`${origin()}/blog/post.html`);
  for (const id of ['w1', 'w2']) {
    await page.locator(`#${id} [data-testid="widget"][data-run-state="done"]`).waitFor();
  }
  const w1 = cli(['charges', '--query', 'strategy=timeout-no-key&seed=7']);
  const w2 = cli(['charges', '--query', 'strategy=keyed&seed=7&maxInflight=20']);
  for (const [id, expected] of [['w1', w1], ['w2', w2]]) {
    for (const field of ['requests', 'duplicates', 'maxInflight', 'elapsedMs']) {
      assert.equal(digits(await page.locator(`#${id} [data-stat="${field}"]`).textContent()), String(expected[field]), `${id}.${field}`);
    }
  }
  assert.ok(w1.duplicates > 0 && w2.duplicates === 0);
  // The blog's styles do not reach inside, ours do not leak out.
  const inside = await page.locator('#w1 [data-testid="run"]').evaluate((b) => {
    const s = getComputedStyle(b);
    return { bg: s.backgroundColor, radius: s.borderTopLeftRadius, font: s.fontFamily, visible: b.offsetParent !== null };
  });
  assert.notEqual(inside.bg, 'rgb(255, 105, 180)', 'the blog button colour stays out');
  assert.notEqual(inside.radius, '0px', 'our rounded buttons survive the blog reset');
  assert.ok(!/Comic Sans/.test(inside.font), inside.font);
  assert.ok(inside.visible, 'the blog cannot hide our cards');
  const outside = await page.locator('#blog-button').evaluate((b) => getComputedStyle(b).minHeight);
  assert.notEqual(outside, '44px', 'our button rules do not touch the blog');
  // Independent: resetting one leaves the other done.
  await page.locator('#w1 [data-testid="reset"]').click();
  await page.locator('#w1 [data-testid="widget"][data-run-state="idle"]').waitFor();
  assert.equal(await page.locator('#w2 [data-testid="widget"]').getAttribute('data-run-state'), 'done');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a widget off screen pauses, and plays while it is in view', async () => {
  const page = await openPage(browser, { viewport: { width: 1000, height: 700 } });
  await page.goto(`${origin()}/blog/post.html`);
  const w3 = page.locator('#w3 [data-testid="widget"]');
  await page.waitForFunction(() => document.querySelector('#w3')?.shadowRoot?.querySelector('[data-run-state="paused"]'));
  await page.locator('#w3').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('#w3').shadowRoot.querySelector('[data-run-state="running"]'));
  const moving = Number(digits(await page.locator('#w3 [data-stat="requests"]').textContent()));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => document.querySelector('#w3').shadowRoot.querySelector('[data-run-state="paused"]'));
  const frozen = await page.locator('#w3 [data-stat="requests"]').textContent();
  await page.waitForTimeout(400);
  assert.equal(await page.locator('#w3 [data-stat="requests"]').textContent(), frozen, 'nothing moves off screen');
  assert.ok(Number(frozen) >= moving);
  assert.equal(await w3.getAttribute('data-run-state'), 'paused');
  await page.context().close();
});

test('prefers-reduced-motion plays runs instantly, with a visible way to animate', async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${lab.base}?strategy=keyed&seed=1&speed=1x`);
  await waitForState(page, 'done', 5_000);
  await page.click('[data-testid="motion-note"] button');
  assert.equal(await page.getAttribute('[data-speed="10x"]', 'aria-pressed'), 'true');
  assert.equal(await page.isVisible('[data-testid="motion-note"]'), false, 'the note goes once the run animates');
  await page.click('[data-strategy="keyed"]');
  await waitForState(page, 'running');
  await page.goto(`${lab.base}?strategy=keyed&seed=1&speed=1x&motion=on`);
  await waitForState(page, 'running');
  await context.close();
});

test('the parameter panel: inline messages, no run until fixed, numbers in the URL, same as the CLI', async () => {
  const page = await openPage(browser, { viewport: { width: 1200, height: 900 } });
  await page.goto(`${lab.base}?seed=4`);
  await page.click('[data-testid="params"] summary');
  await page.fill('[data-param="maxInflight"]', 'abc');
  assert.match(await page.textContent('[data-param-help="maxInflight"]'), /whole number|maxInflight|in flight/i);
  assert.equal(await page.getAttribute('[data-param="maxInflight"]', 'aria-invalid'), 'true');
  await page.click('[data-strategy="keyed"]');
  await page.waitForTimeout(200);
  assert.equal(await page.getAttribute('[data-testid="app"]', 'data-run-state'), 'idle', 'no run while a value is bad');
  assert.match(await page.textContent('[data-testid="run-error"]'), /fix the highlighted/i);
  assert.doesNotMatch(await page.textContent('#rll-seed-help'), /fix the highlighted/i, 'not shown on the seed field');
  assert.equal(await page.getAttribute('[data-testid="seed"]', 'aria-invalid'), 'false');
  await page.fill('[data-param="maxInflight"]', '99999999');
  assert.match(await page.textContent('[data-param-help="maxInflight"]'), /10000|10,000/);
  await page.fill('[data-param="maxInflight"]', '20');
  await page.fill('[data-param="timeoutMs"]', '800');
  await page.click('[data-speed="instant"]');
  await page.click('[data-strategy="keyed"]');
  await waitForState(page, 'done');
  const url = page.url();
  assert.match(url, /maxInflight=20/);
  assert.match(url, /timeoutMs=800/);
  const query = new URL(url).search.slice(1);
  const expected = cli(['charges', '--query', query]);
  const shown = await readStats(page);
  for (const [field, value] of Object.entries(expected)) {
    if (field in shown) assert.equal(shown[field], String(value), field);
  }
  // The link reproduces the run.
  await page.goto(url);
  await waitForState(page, 'done');
  assert.deepEqual(await readStats(page), shown);
  // Reset to the article's values.
  assert.equal(await page.getAttribute('[data-testid="params"]', 'open'), '', 'a changed run opens the panel');
  await page.click('[data-testid="params-reset"]');
  assert.equal(await page.inputValue('[data-param="maxInflight"]'), '10');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The copied link has tests of its own (copy-link.test.mjs).
test('exports equal the CLI\'s', async () => {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${lab.base}?strategy=timeout-no-key&seed=9&speed=instant&pacer=80`);
  await waitForState(page, 'done');
  const query = new URL(page.url()).search.slice(1);
  for (const [button, kind] of [['export-json', 'json'], ['export-csv', 'csv']]) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${button}"]`)]);
    const text = fs.readFileSync(await download.path(), 'utf8');
    assert.equal(text.trimEnd(), cliText(['charges', '--query', query, '--export', kind]).trimEnd(), kind);
  }
  await context.close();
});

test('a framed widget lists what its link could not use, and under reduced motion says why runs are instant', async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  // embed.html, as the README frames it, from the blog's sub-path.
  await page.goto(`${lab.base}embed.html?embed=1&strategy=keyed&seed=1&speed=banana`);
  const widget = page.locator('[data-testid="widget"]');
  await page.waitForSelector('[data-testid="widget"][data-run-state="done"]');
  const problems = page.locator('[data-testid="widget-problems"]');
  assert.ok(await problems.isVisible(), 'the notice shows');
  assert.match(await problems.locator('li').first().textContent(), /banana/);
  const note = page.locator('[data-testid="widget-motion-note"]');
  assert.ok(await note.isVisible(), 'the reduced-motion note shows while runs are instant');
  await note.click({ position: { x: 4, y: 4 } }); // the words, not the button
  assert.equal(await page.getAttribute('[data-speed="instant"]', 'aria-pressed'), 'true');
  await note.locator('button').click();
  assert.equal(await page.getAttribute('[data-speed="10x"]', 'aria-pressed'), 'true');
  assert.ok(!(await note.isVisible()), 'the note goes once runs animate');
  await page.click('[data-testid="run"]');
  await page.waitForSelector('[data-testid="widget"][data-run-state="running"]');
  assert.equal(await widget.count(), 1);

  await page.goto(`${lab.base}?embed=1&strategy=keyed&seed=1&speed=instant`);
  await page.waitForSelector('[data-testid="widget"][data-run-state="done"]');
  assert.ok(!(await page.locator('[data-testid="widget-problems"]').isVisible()), 'no notice for a good link');
  await context.close();
});
