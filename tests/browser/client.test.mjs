// The client view (issue 48): a reader's own client in the editor, run in the sandbox on
// the simulated clock and shown on the run page's panels. Its numbers are checked against
// the CLI's JSON for the built-in strategy whose JavaScript it runs (clients/*.js), the
// harm links against the record, and what the view does with code from a link, bad code,
// a long run and its Cancel.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useLab, openPage, waitForState, readStats, cli, ROOT, screenshotPath } from './harness.mjs';

const lab = useLab(before, after);
const source = (strategy) => fs.readFileSync(path.join(ROOT, 'clients', `${strategy}.js`), 'utf8');
const FIELDS = ['requests', 'charges', 'customersCharged', 'duplicates', 'rateLimited', 'overloaded', 'serverErrors', 'inProgressConflicts', 'gaveUp', 'elapsedMs', 'waitP99Ms'];
const base64url = (text) => Buffer.from(text, 'utf8').toString('base64url');

/** The view, opened with `query`, once its editor holds code. */
async function openView(query, options = {}) {
  const page = await openPage(lab.browser, options);
  page.requested = [];
  page.on('request', (r) => page.requested.push(new URL(r.url()).pathname));
  await page.goto(`${lab.server.base}client.html${query}`);
  await page.waitForSelector('[data-testid="client-view"]');
  return page;
}

/** What the editor shows: CodeMirror's lines on screen once it has loaded (it draws only
 * those), else the text area's whole text. */
async function editorText(page) {
  return page.evaluate(() => {
    const cm = document.querySelector('.cm-content');
    if (cm) return [...cm.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n');
    return document.querySelector('[data-testid="client-code"]').value;
  });
}

/** Replaces the code as a reader does: select all in the editor, and type it in. */
async function typeCode(page, code) {
  await page.waitForSelector('.cm-content', { timeout: 15_000 });
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

async function run(page, timeout = 60_000) {
  await page.click('[data-testid="client-run"]');
  await waitForState(page, 'running', 10_000).catch(() => {});
  await waitForState(page, 'done', timeout);
}

test('the view opens on the lab\'s keyed client, and its run is the built-in keyed run, figure for figure', async () => {
  const page = await openView('?view=client&seed=3');
  await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent.includes('keyed'), null, { timeout: 15_000 });
  const shows = await editorText(page);
  assert.ok(source('keyed').startsWith(shows.slice(0, 200)), shows.slice(0, 200));
  await run(page);
  const stats = await readStats(page);
  const expected = cli(['charges', '--query', 'strategy=keyed&seed=3']);
  const diff = FIELDS.filter((f) => String(expected[f]) !== stats[f]).map((f) => `${f}: page ${stats[f]}, CLI ${expected[f]}`);
  assert.deepEqual(diff, []);
  // The card: the verdict, and the best built-in beside each figure.
  const verdict = await page.textContent('[data-testid="client-verdict"]');
  assert.match(verdict, /^Passed/);
  const requests = await page.$eval('[data-figure="requests"] td', (td) => td.textContent.replace(/,/g, ''));
  assert.equal(requests, String(expected.requests));
  const best = await page.$eval('[data-figure="chargedTwice"] td:nth-of-type(2)', (td) => td.textContent.trim());
  assert.match(best, /^0 /, 'the best built-in charged nobody twice');
  // The link now names the run, with its code.
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('view'), 'client');
  assert.equal(Buffer.from(url.searchParams.get('code'), 'base64url').toString('utf8').trim(), source('keyed').trim());
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a client that charges twice: each harm links to its customer\'s story, and incidents apply', async () => {
  const page = await openView('?view=client&seed=1&strategy=timeout-no-key');
  await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent.includes('timeout'), null, { timeout: 15_000 });
  await run(page);
  const expected = cli(['charges', '--query', 'strategy=timeout-no-key&seed=1']);
  assert.ok(expected.duplicates > 0);
  const stats = await readStats(page);
  assert.equal(stats.duplicates, String(expected.duplicates));
  assert.match(await page.textContent('[data-testid="client-verdict"]'), /^Failed: \d+ customers? charged twice/);
  const first = await page.$eval('[data-figure="chargedTwice"] [data-customer]', (b) => Number(b.dataset.customer));
  await page.click('[data-figure="chargedTwice"] [data-customer]');
  await page.waitForSelector(`[data-testid="story"][data-customer="${first}"]`);
  // The story the page tells is the CLI's story of that customer: charged twice or more.
  const story = cli(['charges', '--query', `strategy=timeout-no-key&seed=1&customer=${first}`]);
  assert.ok(story.charges >= 2, JSON.stringify(story));
  assert.equal(await page.getAttribute('[data-testid="story"]', 'data-charges'), String(story.charges));
  assert.equal(await page.$$eval('[data-testid="story"] tbody tr', (rows) => rows.length), story.attempts.length);
  // Under an incident, the same code meets it: the numbers are the built-in's under it.
  await page.selectOption('[data-slot="client-incident"]', 'down');
  await run(page);
  const down = cli(['charges', '--query', 'strategy=timeout-no-key&seed=1&incident=down']);
  const stats2 = await readStats(page);
  assert.equal(stats2.requests, String(down.requests));
  assert.equal(stats2.charges, String(down.charges));
  assert.equal(new URL(page.url()).searchParams.get('incident'), 'down');
  await page.screenshot({ path: screenshotPath('client-harm-1366.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('code from a link is shown and never run until the reader presses Run', async () => {
  const code = "export async function charge(id) {\n  console.log('ran for', id);\n}\n";
  const page = await openView(`?view=client&seed=2&customers=3&code=${base64url(code)}`);
  await page.waitForSelector('.cm-content', { timeout: 15_000 });
  assert.equal((await editorText(page)).trim(), code.trim());
  assert.equal(await page.isVisible('[data-testid="client-linked"]'), true);
  await page.waitForTimeout(1500);
  assert.equal(await page.$('iframe[sandbox]'), null, 'no sandbox before Run');
  assert.ok(!page.requested.some((p) => p.includes('sandbox')), page.requested.join(' '));
  assert.equal(await page.getAttribute('[data-testid="app"]', 'data-run-state'), 'idle');
  await run(page);
  const lines = await page.$$eval('[data-testid="client-log"] li', (ls) => ls.map((l) => l.textContent));
  assert.deepEqual(lines, ['0.000000 s ran for 1', '0.000000 s ran for 2', '0.000000 s ran for 3']);
  // Three customers never charged: lost, and linked.
  assert.match(await page.textContent('[data-testid="client-verdict"]'), /3 charges lost/);
  assert.equal(await page.$('iframe[sandbox]'), null, 'the sandbox is gone once the run is done');
  // A link whose code is not base64url says so, and the editor opens on the lab's client.
  const bad = await openView('?view=client&code=%%%');
  assert.match(await bad.textContent('[data-testid="query-problems"]'), /not base64url/);
  await bad.context().close();
  await page.context().close();
});

test('bad code gets a sentence and a mark at its line, and the page stays alive', async () => {
  const page = await openView('?view=client&seed=1&customers=20');
  await typeCode(page, 'export async function charge(id) {\n  return id +;\n}\n');
  await run(page);
  assert.match(await page.textContent('[data-testid="client-problems"]'), /does not parse on line 2/);
  await page.waitForSelector('.cm-lintRange, .cm-lint-marker');
  // A loop that never awaits: the watchdog stops it, and Run works again.
  await typeCode(page, 'export async function charge(id) {\n  while (true) {}\n}\n');
  const t0 = Date.now();
  await run(page, 20_000);
  assert.ok(Date.now() - t0 < 10_000);
  assert.match(await page.textContent('[data-testid="client-problems"]'), /held the sandbox for 3\.0 s/);
  // An exception in charge(), with its line, and customers left unfinished.
  await typeCode(page, 'export async function charge(id) {\n  if (id === 3) throw new Error("card lost");\n  if (id === 4) await new Promise(() => {});\n}\n');
  await run(page);
  const said = await page.textContent('[data-testid="client-problems"]');
  assert.match(said, /charge\(\) rejected on line 2, column \d+ at 0\.000000 s: card lost/);
  assert.match(said, /1 customer never finished/);
  assert.equal(await page.$eval('[data-figure="unfinished"] td', (td) => td.textContent), '1');
  assert.equal(await page.isEnabled('[data-testid="client-run"]'), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a long run shows its progress and a Cancel that stops it', async () => {
  const page = await openView('?view=client&seed=1&customers=20000');
  await page.waitForSelector('.cm-content', { timeout: 15_000 });
  await page.click('[data-testid="client-run"]');
  await page.waitForSelector('[data-testid="client-cancel"]:not([hidden])');
  await page.waitForSelector('[role="progressbar"][aria-valuemax="20000"]', { timeout: 10_000 });
  await page.waitForFunction(() => /Running in the sandbox: [\d,]+ of 20,000 customers done/.test(document.querySelector('[data-testid="client-status"]').textContent));
  await page.click('[data-testid="client-cancel"]');
  await waitForState(page, 'idle');
  assert.match(await page.textContent('[data-testid="client-status"]'), /Cancelled/);
  await page.waitForFunction(() => !document.querySelector('iframe[sandbox]'));
  assert.equal(await page.$('[data-testid="client-report"]'), null);
  // Too many customers get a sentence, not a run.
  await page.fill('[data-slot="client-customers"]', '60000');
  await page.click('[data-testid="client-run"]');
  assert.match(await page.textContent('[data-testid="client-fields-error"]'), /at most 50,000 customers/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a 375 px phone the view fits, and the keyboard reaches Run', async () => {
  const page = await openView('?view=client&seed=4&customers=200', { viewport: { width: 375, height: 740 } });
  await page.waitForSelector('.cm-content', { timeout: 15_000 });
  await run(page);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 375, `scrolls sideways: ${wide}`);
  await page.screenshot({ path: screenshotPath('client-375.png'), fullPage: true });
  // Ctrl+Enter in the editor runs the code.
  await page.click('.cm-content');
  await page.keyboard.press('Control+Enter');
  await waitForState(page, 'running', 5_000).catch(() => {});
  await waitForState(page, 'done');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
