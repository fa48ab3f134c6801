// The code editor of the "your own client" view (assets/editor/editor.js, bundled by
// scripts/editor.mjs into dist/editor/editor.js), loaded into a page of the lab under the
// page's own Content-Security-Policy: it edits by keyboard, undoes, shows an error at a line
// and column, names its text for screen readers, lets keyboard users leave it, follows the
// page's dark scheme and fits a 375 px phone, with no page error and no CSP violation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DIST, useLab, openPage } from './harness.mjs';

const lab = useLab(before, after);
const BUNDLE = path.join(DIST, 'editor', 'editor.js');
// A release build precompresses every page (scripts/precompress.mjs); a debug one does not.
const RELEASE = fs.existsSync(path.join(DIST, 'index.html.gz'));
const LABEL = 'Your client\'s JavaScript';

/** Skips when the build has no editor, unless it is a release build, which must have it. */
function needsBundle(t) {
  if (fs.existsSync(BUNDLE)) return true;
  assert.ok(!RELEASE, `${BUNDLE} is missing from a release build: scripts/post-build.mjs must run scripts/editor.mjs`);
  t.skip(`${BUNDLE} is missing: a build without scripts/editor.mjs (run node scripts/editor.mjs dist)`);
  return false;
}

/** headers.html with the editor in its app root, a button after it, and the page's CSP
 * violations recorded in `window.violations` from before any script of the page runs. */
async function openEditor(options = {}) {
  const page = await openPage(lab.browser, options);
  await page.addInitScript(() => {
    // Runs `f` from a timer, as the page's own code. Code that page.evaluate runs directly is
    // let through by DevTools even where the CSP forbids it (eval, new Function): every call
    // into the editor goes through here, so the CSP applies to the editor as it will in the view.
    window.later = (f) => new Promise((resolve, reject) => setTimeout(() => { try { resolve(f()); } catch (e) { reject(e); } }));
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(`${lab.server.base}headers.html`);
  await page.waitForSelector('[data-testid="app"]');
  // The CSP is the page's own (a <meta> in every page file), not something this test adds.
  assert.match(await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content'), /script-src 'self' 'wasm-unsafe-eval';/);
  await page.evaluate((label) => later(async () => {
    const { createEditor } = await import('./editor/editor.js');
    const host = document.createElement('div');
    host.id = 'editor-host';
    const after = document.createElement('button');
    after.id = 'after-editor';
    after.textContent = 'Run';
    document.querySelector('[data-testid="app"]').prepend(host, after);
    window.changes = [];
    window.editor = createEditor(host, { doc: 'x', label, onChange: (text) => window.changes.push(text) });
  }), LABEL);
  return page;
}

const value = (page) => page.evaluate(() => later(() => window.editor.getValue()));

test('the editor edits by keyboard and undoes, shows an error at its line and column, and loads under the page\'s CSP', async (t) => {
  if (!needsBundle(t)) return;
  if (RELEASE) {
    const gz = fs.readFileSync(`${BUNDLE}.gz`);
    assert.ok(zlib.gunzipSync(gz).equals(fs.readFileSync(BUNDLE)), 'editor/editor.js.gz gives back editor/editor.js');
  }
  const page = await openEditor();
  assert.deepEqual(await page.evaluate(() => window.violations), [], 'no CSP violation while loading and creating the editor');

  // The violation listener works: a script from data:, which script-src 'self' refuses, is
  // recorded (so an empty list at the end means no violation, not a deaf listener).
  await page.evaluate(() => import('data:text/javascript,export default 1').catch(() => {}));
  await page.waitForFunction(() => window.violations.length > 0);
  assert.deepEqual(await page.evaluate(() => window.violations), ['script-src-elem data']);
  await page.evaluate(() => { window.violations = []; });
  page.errors = page.errors.filter((e) => !e.includes('data:text/javascript'));

  const content = page.locator('#editor-host .cm-content');
  assert.equal(await content.getAttribute('aria-label'), LABEL);
  assert.equal(await content.getAttribute('role'), 'textbox');
  assert.match(await content.evaluate((e) => getComputedStyle(e).fontFamily), /monospace/);

  // setValue is not a change of the reader's; typing is.
  const doc = 'export async function charge(id, { baseUrl }) {\n    retrun 1;\n}';
  await page.evaluate((d) => later(() => window.editor.setValue(d)), doc);
  assert.equal(await value(page), doc);
  assert.deepEqual(await page.evaluate(() => window.changes), []);
  await page.evaluate(() => later(() => window.editor.focus()));
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n// done');
  const typed = `${doc}\n// done`;
  assert.equal(await value(page), typed);
  assert.equal(await page.evaluate(() => window.changes.at(-1)), typed, 'onChange hears the typing');
  // The history undoes the typing (in as many steps as it grouped it into).
  for (let i = 0; i < 10 && (await value(page)) !== doc; i++) await page.keyboard.press('Control+z');
  assert.equal(await value(page), doc, 'undo takes the typing back');

  // The error: underlined at line 2, column 5 (the word there), marked in the gutter beside
  // line 2, its message in the marker's tooltip and announced.
  // Read at once: CodeMirror empties its live region 200 ms after it spoke.
  const announced = await page.evaluate(() => later(() => {
    window.editor.showError({ line: 2, column: 5, message: 'Unexpected token' });
    return document.querySelector('#editor-host .cm-announced').textContent;
  }));
  assert.equal(announced, 'Line 2: Unexpected token', 'the error is announced');
  const range = page.locator('#editor-host .cm-lintRange-error');
  assert.equal(await range.count(), 1);
  assert.equal(await range.textContent(), 'retrun');
  const lines = await page.$$eval('#editor-host .cm-line', (ls) => ls.map((l) => l.querySelector('.cm-lintRange-error') !== null));
  assert.deepEqual(lines, [false, true, false], 'the underline is on line 2');
  const marker = page.locator('#editor-host .cm-gutter-lint .cm-lint-marker-error');
  assert.equal(await marker.count(), 1);
  const lineTwo = await page.locator('#editor-host .cm-line').nth(1).boundingBox();
  const markerBox = await marker.boundingBox();
  assert.ok(markerBox.y >= lineTwo.y - 1 && markerBox.y < lineTwo.y + lineTwo.height, `the marker (y ${markerBox.y}) is beside line 2 (${lineTwo.y}–${lineTwo.y + lineTwo.height})`);
  await marker.hover();
  const tip = page.locator('.cm-tooltip .cm-diagnostic-error');
  await tip.waitFor();
  assert.equal((await tip.textContent()).trim(), 'Unexpected token');
  // Its colour is the page's harm colour, not CodeMirror's own red.
  const [underline, harm] = await range.evaluate((e) => [
    getComputedStyle(e).textDecorationColor,
    getComputedStyle(document.querySelector('[data-testid="app"]')).getPropertyValue('--rll-harm').trim(),
  ]);
  assert.equal(underline, await page.evaluate((c) => { const s = document.createElement('span'); s.style.color = c; document.body.append(s); const r = getComputedStyle(s).color; s.remove(); return r; }, harm));

  // A second error keeps the first where the reader's edits have moved it: a line typed above.
  await page.evaluate(() => later(() => window.editor.focus()));
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Enter');
  await page.evaluate(() => later(() => window.editor.showError({ line: 2, column: 1, message: 'Second' })));
  const marked = await page.$$eval('#editor-host .cm-line', (ls) => ls.map((l) => l.querySelector('.cm-lintRange-error')?.textContent ?? null));
  assert.deepEqual(marked, [null, 'export', 'retrun', null]);

  await page.evaluate(() => later(() => window.editor.clearErrors()));
  assert.equal(await range.count(), 0, 'clearErrors takes the underline away');
  assert.equal(await marker.count(), 0, 'clearErrors takes the marker away');

  // An error far down is scrolled into view.
  const long = Array.from({ length: 300 }, (_, i) => `const line${i + 1} = ${i + 1};`).join('\n');
  await page.evaluate((d) => later(() => window.editor.setValue(d)), long);
  await page.evaluate(() => later(() => window.editor.showError({ line: 250, column: 7, message: 'Far down' })));
  await range.waitFor({ timeout: 5_000 });
  assert.equal(await range.textContent(), 'line250');
  const [scroller, mark] = [await page.locator('#editor-host .cm-scroller').boundingBox(), await range.boundingBox()];
  assert.ok(mark.y >= scroller.y && mark.y + mark.height <= scroller.y + scroller.height, `line 250 (y ${mark.y}) is within the editor's view (${scroller.y}–${scroller.y + scroller.height})`);

  // Lines and columns past the text are clamped, not thrown at.
  await page.evaluate(() => later(() => { window.editor.clearErrors(); window.editor.setValue('a\nb'); window.editor.showError({ line: 9, column: 99, message: 'past the end' }); }));
  assert.equal(await page.locator('#editor-host .cm-gutter-lint .cm-lint-marker-error').count(), 1);

  await page.evaluate(() => later(() => window.editor.destroy()));
  assert.equal(await page.locator('#editor-host .cm-editor').count(), 0, 'destroy takes the editor away');

  assert.deepEqual(await page.evaluate(() => window.violations), [], 'no CSP violation');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Tab indents, but Escape then Tab leaves the editor: no keyboard trap', async (t) => {
  if (!needsBundle(t)) return;
  const page = await openEditor();
  await page.evaluate(() => later(() => { window.editor.setValue('a'); window.editor.focus(); }));
  const inEditor = () => page.evaluate(() => document.activeElement?.closest('#editor-host') !== null);
  // One focus ring, the page's, on the editor's frame; none on the text inside it. The
  // editor marks itself focused a moment after the focus moves, so wait for the ring.
  await page.waitForFunction(() => getComputedStyle(document.querySelector('#editor-host .cm-editor')).outlineStyle !== 'none', null, { timeout: 5_000 }).catch(() => {});
  const rings = await page.$eval('#editor-host .cm-editor', (e) => [getComputedStyle(e).outlineStyle, getComputedStyle(e.querySelector('.cm-content')).outlineStyle]);
  assert.deepEqual(rings, ['solid', 'none']);
  await page.keyboard.press('Tab');
  assert.ok(await inEditor(), 'Tab alone stays in the editor');
  assert.match(await value(page), /^\s+a$/, 'and indents the line');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'after-editor', 'Escape then Tab moves to the next control');
  // Back in, Shift+Tab after Escape leaves the other way.
  await page.evaluate(() => later(() => window.editor.focus()));
  await page.keyboard.press('Escape');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await inEditor(), false, 'Escape then Shift+Tab moves out backwards');
  // Ctrl-M (defaultKeymap) makes Tab move focus until pressed again, for longer work.
  await page.evaluate(() => later(() => window.editor.focus()));
  await page.keyboard.press('Control+m');
  await page.waitForTimeout(2_100); // past the 2 s in which an Escape would have let Tab out
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'after-editor', 'after Ctrl-M, Tab moves to the next control');
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the editor takes the page\'s dark colours and fits a 375 px phone', async (t) => {
  if (!needsBundle(t)) return;
  const page = await openEditor({ colorScheme: 'dark', viewport: { width: 375, height: 740 } });
  await page.evaluate(() => later(() => window.editor.setValue(`fetch(baseUrl + '/charges', { method: 'POST', headers: { 'Idempotency-Key': key }, body: JSON.stringify({ id }) });`)));
  const [background, surface] = await page.evaluate(() => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--rll-surface)';
    document.querySelector('[data-testid="app"]').append(probe);
    const surface = getComputedStyle(probe).color;
    probe.remove();
    return [getComputedStyle(document.querySelector('#editor-host .cm-editor')).backgroundColor, surface];
  });
  assert.equal(background, surface, 'the editor\'s background is the page\'s surface colour');
  assert.equal(surface, 'rgb(24, 30, 39)', 'and that is the dark scheme\'s');
  const box = await page.locator('#editor-host .cm-editor').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 375, `the editor (${box.x}–${box.x + box.width}) fits 375 px`);
  const [scrollWidth, clientWidth] = await page.$eval('#editor-host .cm-scroller', (e) => [e.scrollWidth, e.clientWidth]);
  assert.ok(scrollWidth <= clientWidth, `a long line wraps: no sideways scrolling (${scrollWidth} > ${clientWidth})`);
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('no page of the lab but the client view fetches the editor on its first load, and that one after its module', async (t) => {
  if (!needsBundle(t)) return;
  const pages = fs.readdirSync(DIST).filter((f) => f.endsWith('.html')).sort();
  assert.ok(pages.length >= 8, pages.join(' '));
  for (const file of pages) {
    const page = await openPage(lab.browser);
    const fetched = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await page.goto(`${lab.server.base}${file}`);
    // Every file's module loaded and nothing more on its way (embed.html, a widget, has no app root).
    await page.waitForLoadState('networkidle');
    assert.ok(fetched.some((p) => p.endsWith('_bg.wasm')), `${file}: its module was fetched (the listener hears requests): ${fetched.join(' ')}`);
    if (file === 'client.html') {
      // The one view that uses it: fetched, after the page's own module.
      const editor = fetched.findIndex((p) => p.endsWith('/editor/editor.js'));
      assert.ok(editor > fetched.findIndex((p) => p.endsWith('_bg.wasm')), `${file}: ${fetched.join(' ')}`);
    } else {
      assert.deepEqual(fetched.filter((p) => p.includes('/editor/')), [], `${file} fetched the editor`);
    }
    assert.deepEqual(page.errors, [], file);
    await page.context().close();
  }
});
