// The header reader on the headers page: a sample of the reader's table
// (tests/fixtures/header_cases.txt) pasted into the page must read exactly as
// `ratelab headers read --json` reads it, and as the table expects; the examples load;
// bad input is a sentence. Build the CLI first: cargo build --release --bin ratelab.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { useLab, openPage, screenshotPath, ROOT } from './harness.mjs';

const lab = useLab(before, after);
const RATELAB = process.env.RATELAB_BIN ?? path.join(ROOT, 'target', 'release', 'ratelab');
const DEFAULT_NOW = '1788086459';

/** The table's cases: { line, rule, now, block, expected: null | { waitS, from, capped } }. */
function cases() {
  const text = fs.readFileSync(path.join(ROOT, 'crates', 'page', 'tests', 'fixtures', 'header_cases.txt'), 'utf8');
  const out = [];
  let line = 1;
  for (const chunk of text.split('\n\n')) {
    const start = line;
    line += chunk.split('\n').length + 1;
    const lines = chunk.split('\n');
    const expectation = lines.find((l) => l.startsWith('= '));
    if (!expectation) continue;
    const rule = lines.filter((l) => l.startsWith('#')).join(' ');
    const now = (lines.find((l) => l.startsWith('@now ')) ?? `@now ${DEFAULT_NOW}`).slice(5);
    const block = lines.filter((l) => l && !l.startsWith('#') && !l.startsWith('@now ') && !l.startsWith('= ')).join('\n');
    const words = expectation.slice(2).split(' ');
    const expected = words[0] === 'none' ? null : { waitS: Number(words[0]), from: words[1], capped: words[2] === 'capped' };
    out.push({ line: start, rule, now, block, expected });
  }
  return out;
}

function cliReading(block, now) {
  return JSON.parse(execFileSync(RATELAB, ['headers', 'read', '--now', now, '--json'], { input: block, encoding: 'utf8' }));
}

/** What the page shows, in the CLI's JSON shape. */
async function pageReading(page) {
  return page.$eval('[data-testid="header-reader"]', (root) => {
    const r = root.querySelector('[data-testid="reader-result"]');
    return {
      waitS: r.dataset.waitS === 'none' ? null : Number(r.dataset.waitS),
      from: r.dataset.from === '' ? null : r.dataset.from,
      capped: r.dataset.capped === 'true',
      ignored: [...root.querySelectorAll('[data-testid="reader-ignored"] li')].map((li) => ({
        header: li.dataset.header,
        why: li.textContent.trim(),
      })),
    };
  });
}

async function paste(page, block, now) {
  await page.fill('[data-testid="reader-now"]', now);
  await page.fill('[data-testid="reader-block"]', block);
}

test('a sample of the table reads the same on the page as on the command line', async () => {
  const all = cases();
  assert.ok(all.length >= 80, `${all.length} cases`);
  // Every fourth case, and every case about a quoted comma, a date form or a cap.
  const sample = all.filter((c, i) => i % 4 === 0 || /comma|RFC 850|asctime|cap/i.test(c.rule));
  assert.ok(sample.length >= 25, `${sample.length} sampled`);
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?section=headers`);
  await page.waitForSelector('[data-testid="reader-result"]');
  for (const c of sample) {
    await paste(page, c.block, c.now);
    const shown = await pageReading(page);
    const printed = cliReading(c.block, c.now);
    assert.deepEqual(shown, printed, `line ${c.line}: ${c.rule}`);
    if (c.expected === null) {
      assert.equal(shown.waitS, null, `line ${c.line}`);
    } else {
      assert.deepEqual([shown.waitS, shown.from, shown.capped], [c.expected.waitS, c.expected.from, c.expected.capped], `line ${c.line}`);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('each example loads with its source and agrees with the command line', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?section=headers`);
  await page.waitForSelector('[data-testid="reader-result"]');
  const ids = await page.$$eval('[data-example]', (els) => els.map((e) => e.dataset.example));
  assert.deepEqual(ids, ['github', 'discord', 'draft-06', 'draft-07', 'draft-08', 'rfc850', 'quoted-comma', 'openai']);
  for (const id of ids) {
    await page.click(`[data-example="${id}"]`);
    assert.equal(await page.getAttribute(`[data-example="${id}"]`, 'aria-pressed'), 'true');
    const source = await page.textContent(`[data-example="${id}"] small`);
    assert.ok(source.trim().length > 20, `${id} names its source`);
    const block = await page.inputValue('[data-testid="reader-block"]');
    const shown = await pageReading(page);
    assert.deepEqual(shown, cliReading(block, DEFAULT_NOW), id);
    assert.ok(shown.waitS > 0, `${id} asks for a wait`);
  }
  // The RFC 850 example: the reader waits 120 s, the naive client not at all.
  await page.click('[data-example="rfc850"]');
  assert.match(await page.inputValue('[data-testid="reader-block"]'), /Retry-After: Sunday, 30-Aug-26 10:42:59 GMT/);
  assert.equal((await page.textContent('[data-testid="reader-wait"]')).trim(), '120 s');
  assert.match(await page.textContent('[data-testid="reader-naive-consequence"]'), /NaN.*early, so the server refuses it again/);
  // GitHub's epoch reset: the naive client sleeps for decades.
  await page.click('[data-example="github"]');
  assert.match(await page.textContent('[data-testid="reader-naive"]'), /years/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a bad block or a bad now is a sentence, and the page keeps working', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?section=headers`);
  await page.waitForSelector('[data-testid="reader-result"]');
  await paste(page, 'Retry-After 5', DEFAULT_NOW);
  assert.equal((await page.textContent('[data-testid="reader-error"]')).trim(), "Line 1 has no colon: each line must be 'Name: value'.");
  await paste(page, `Retry-After: ${'9'.repeat(100_000)}`, DEFAULT_NOW);
  assert.match(await page.textContent('[data-testid="reader-error"]'), /larger than 64 KiB/);
  await paste(page, 'Retry-After: 5', 'yesterday');
  assert.match(await page.textContent('[data-testid="reader-error"]'), /'yesterday' is not a time/);
  assert.match(await page.textContent('[data-testid="reader-now-date"]'), /'yesterday' is not a time/);
  await paste(page, 'Retry-After: 5', DEFAULT_NOW);
  assert.equal((await page.textContent('[data-testid="reader-wait"]')).trim(), '5 s');
  assert.equal((await page.textContent('[data-testid="reader-now-date"]')).trim(), 'Sun, 30 Aug 2026 10:40:59 GMT');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const [name, viewport] of [['wide', { width: 1366, height: 768 }], ['narrow', { width: 375, height: 812 }]]) {
  test(`screenshot of the header reader, ${name}`, async () => {
    const page = await openPage(lab.browser, { viewport });
    await page.goto(`${lab.server.base}?section=headers`);
    await page.waitForSelector('[data-testid="reader-result"]');
    await page.click('[data-example="quoted-comma"]');
    await page.locator('[data-testid="header-reader"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`header-reader-${name}.png`), fullPage: true });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
