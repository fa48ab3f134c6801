// The header reader on the headers page: a sample of the reader's table
// (crates/page/tests/fixtures/header_cases.txt) pasted into the page must read exactly as
// `ratelab headers read --json` reads it, and as the table expects; the examples load;
// bad input is a sentence; "now" starts at the browser's clock; the naive reading's claim
// about JavaScript's timer is checked against a real setTimeout. Build the CLI first:
// cargo build --release --bin ratelab.
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
      naive: naiveOf(root),
    };
    function naiveOf(root) {
      const langs = root.querySelector('[data-testid="naive-languages"]');
      if (!langs) return null;
      const read = root.querySelector('[data-testid="reader-naive-read"]').textContent;
      const at = read.indexOf(': ');
      const say = (key) => root.querySelector(`[data-testid="naive-${key}"]`).textContent;
      return {
        header: read.slice(0, at),
        value: read.slice(at + 2),
        browserMs: Number(langs.dataset.browserMs),
        languages: { browser: say('browser'), node: say('node'), python: say('python'), go: say('go') },
      };
    }
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
  // The examples are timed from "now": a fixed one makes them comparable with the CLI.
  await page.fill('[data-testid="reader-now"]', DEFAULT_NOW);
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
  // GitHub's epoch reset read as seconds: a browser's timer wraps it around 32 bits
  // (1,788,088,259,000 ms is 1,380,185,544 ms as an int32: 16.0 days), Python and Go sleep
  // for decades.
  await page.click('[data-example="github"]');
  assert.equal((await page.textContent('[data-testid="reader-naive"]')).trim(), '16.0 days');
  assert.equal((await page.textContent('[data-testid="naive-python"]')).trim(), 'sleeps 56.7 years.');
  assert.match(await page.textContent('[data-testid="naive-node"]'), /sets it to 1 ms with a TimeoutOverflowWarning/);
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

test('now starts at the browser clock, so a header pasted live reads true times', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?section=headers`);
  await page.waitForSelector('[data-testid="reader-result"]');
  const clock = await page.evaluate(() => Math.floor(Date.now() / 1000));
  const now = Number(await page.inputValue('[data-testid="reader-now"]'));
  assert.ok(Math.abs(now - clock) <= 5, `now ${now}, clock ${clock}`);
  // GitHub's reset 20 s ahead, pasted live: about 20 s, not 0.
  await page.fill('[data-testid="reader-block"]', `x-ratelimit-remaining: 0\nx-ratelimit-reset: ${now + 20}`);
  const reset = await pageReading(page);
  assert.equal(reset.waitS, 20, JSON.stringify(reset));
  // An HTTP-date 20 minutes ahead, written by the browser's own Date: 1,200 s, not capped.
  const date = await page.evaluate((n) => new Date((n + 1200) * 1000).toUTCString(), now);
  await page.fill('[data-testid="reader-block"]', `Retry-After: ${date}`);
  const dated = await pageReading(page);
  assert.deepEqual([dated.waitS, dated.capped], [1200, false], `${date}: ${JSON.stringify(dated)}`);
  // A chosen example is re-timed by a new now.
  await page.click('[data-example="rfc850"]');
  await page.fill('[data-testid="reader-now"]', DEFAULT_NOW);
  assert.match(await page.inputValue('[data-testid="reader-block"]'), /Retry-After: Sunday, 30-Aug-26 10:42:59 GMT/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the page's JavaScript reading is what a real setTimeout does", async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?section=headers`);
  await page.waitForSelector('[data-testid="reader-result"]');
  await page.fill('[data-testid="reader-now"]', DEFAULT_NOW);
  // A normal delay; 2^31 + 300 ms (negative as 32 bits); 2^32 + 300 ms (wraps to 300 ms);
  // a date (NaN); 20 digits (10^23 ms); GitHub's reset read as seconds (16 days).
  const values = ['0.3', '2147483.948', '4294967.596', 'Sun, 30 Aug 2026 10:42:59 GMT', '99999999999999999999', '1788086579'];
  for (const value of values) {
    await page.fill('[data-testid="reader-block"]', `Retry-After: ${value}`);
    const shown = await pageReading(page);
    const said = shown.naive.languages.browser;
    // The delay the page names is the one JavaScript computes: ToInt32, floored at 0.
    const computed = await page.evaluate((v) => Math.max((Number(v) * 1000) | 0, 0), value);
    assert.equal(shown.naive.browserMs, computed, `${value}: ${said}`);
    assert.deepEqual(shown.naive, cliReading(`Retry-After: ${value}`, DEFAULT_NOW).naive, value);
    if (computed > 1000) continue;
    // Short enough to run: a real timer set as the naive client sets it.
    const elapsed = await page.evaluate(
      (v) => new Promise((done) => {
        const t0 = performance.now();
        setTimeout(() => done(performance.now() - t0), Number(v) * 1000);
      }),
      value,
    );
    if (shown.naive.browserMs === 0) {
      assert.match(said, /fires at once/, value);
      assert.ok(elapsed < 50, `${value}: the page says at once, the timer took ${elapsed} ms`);
    } else {
      assert.doesNotMatch(said, /fires at once/, value);
      assert.ok(Math.abs(elapsed - shown.naive.browserMs) < 150, `${value}: said ${shown.naive.browserMs} ms, took ${elapsed} ms`);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const [name, viewport] of [['wide', { width: 1366, height: 768 }], ['narrow', { width: 375, height: 812 }]]) {
  test(`screenshot of the header reader, ${name}`, async () => {
    const page = await openPage(lab.browser, { viewport });
    await page.goto(`${lab.server.base}?section=headers`);
    await page.waitForSelector('[data-testid="reader-result"]');
    // A live GitHub-style block with a 20-digit Retry-After on top.
    const now = Number(await page.inputValue('[data-testid="reader-now"]'));
    await page.fill(
      '[data-testid="reader-block"]',
      `HTTP/1.1 429 Too Many Requests\nRetry-After: 99999999999999999999\nx-ratelimit-limit: 60\nx-ratelimit-remaining: 0\nx-ratelimit-reset: ${now + 20}`,
    );
    await page.locator('[data-testid="header-reader"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`header-reader-${name}.png`), fullPage: true });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
