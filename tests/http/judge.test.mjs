// `ratelab judge` over real HTTP: the project's JavaScript clients (clients/*.js, run by
// clients/run.mjs under this Node) and a client in another language (Python's standard
// library, tests/http/clients/keyed.py), each judged against a fresh provider with the
// defaults (1,000 customers, seed 1). And `ratelab serve`'s GET /report after a client
// that ran on its own.
//
// The bands, and how they were measured. The provider rolls the simulation's dice for
// seed 1, so where timing plays no part the real run meets the model's figures exactly;
// where it does (a slow charge against a 1 s timeout, a stalled machine), each band is
// the model's spread over seeds 1..=100 (`ratelab charges --strategy S --seeds 1..=100
// --json`), widened for the real clock:
// - timeout-no-key: the model charges 15 to 47 customers twice (27 on seed 1); judged for
//   real on this 2-core machine (load average 7 to 12) it charged 24, 26 and 27 twice
//   (with up to 16 × 429 and 64 × 503 from stalls, which the model never meets), so the
//   band is 10 to 60. Exit code 1.
// - keyed and pool: never charged twice and no charge lost, in the model on every seed
//   and for real (the idempotency key makes a retry safe): exactly 0 and 0, exit code 0.
//   Requests: the model sends 1,061–1,156 (keyed) and 1,101–1,187 (pool); for real 1,067
//   and 1,110, seed 1's own figures. Band: 1,000 to 1,300 (a stall costs a few 503s,
//   each one retry).
// - naive: the model charges 7 to 10 of the 990 valid cards and is refused 900 × 429;
//   for real 10 charged (an earlier measurement: 19, over 1.5 s of a busy machine). Band:
//   at least 800 charges lost and 800 refusals for the rate limit. Exit code 1.
// - the Python client is keyed and paced like `pool`: 0 and 0, exit code 0 (for real:
//   1,110 requests, as pool's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RATELAB, startServe } from './serve.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `ratelab judge --json -- …command`: its exit code, its card, and its standard error. */
function judge(command, flags = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(RATELAB, ['judge', '--json', ...flags, '--', ...command], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.once('error', reject);
    child.once('exit', (code) => {
      try {
        resolve({ code, report: JSON.parse(out), err });
      } catch (e) {
        reject(new Error(`judge printed no card (${e.message}), exit ${code}\n${out}\n${err}`));
      }
    });
  });
}

/** Judges clients/<name>.js under this Node. */
const judgeClient = (name) => judge([process.execPath, 'clients/run.mjs', `clients/${name}.js`]);

/** What went wrong, if an assertion fails: the card, the notes and the client's words. */
const said = ({ code, report, err }) =>
  `exit ${code}\n${JSON.stringify(report.card)}\n${report.notes.join('\n')}\n${err.slice(-2000)}`;

/** The card's shape, whatever the client: the customers, the comparison, the command. */
function checkShape(judged) {
  const { report } = judged;
  assert.equal(report.card.customers, 1000, said(judged));
  assert.equal(report.seed, 1);
  assert.equal(report.card.unfinished, 0, said(judged));
  assert.equal(report.command.exitCode, 0, said(judged));
  assert.equal(report.command.stoppedAtLimit, false);
  // Beside it, the best of the ten built-in strategies that passed in the simulation:
  // none charged twice or lost a charge, and none was over in naive's 17 ms.
  assert.equal(report.best.customers, 1000);
  assert.equal(report.best.chargedTwice, 0);
  assert.equal(report.best.chargesLost, 0);
  assert.ok(report.best.elapsedMs > 10_000, JSON.stringify(report.best));
  assert.equal(report.fails, judged.code === 1);
}

test('timeout-no-key charges some customers twice, and fails', async () => {
  const judged = await judgeClient('timeout-no-key');
  checkShape(judged);
  const { card } = judged.report;
  assert.equal(judged.code, 1, said(judged));
  assert.ok(card.chargedTwice >= 10 && card.chargedTwice <= 60, said(judged));
  // The model gives up on at most 1 customer over 100 seeds (five failures in a row);
  // a stalled machine's 503s may add a few.
  assert.ok(card.chargesLost <= 5, said(judged));
});

for (const name of ['keyed', 'pool']) {
  test(`${name} charges every customer once, and passes`, async () => {
    const judged = await judgeClient(name);
    checkShape(judged);
    const { card } = judged.report;
    assert.equal(judged.code, 0, said(judged));
    assert.equal(card.chargedTwice, 0, said(judged));
    assert.equal(card.chargesLost, 0, said(judged));
    // 990 valid cards (every 97th is declined), each charged once.
    assert.equal(card.charges, 990, said(judged));
    assert.ok(card.requests >= 1000 && card.requests <= 1300, said(judged));
  });
}

test('naive loses most charges, and fails', async () => {
  const judged = await judgeClient('naive');
  checkShape(judged);
  const { card } = judged.report;
  assert.equal(judged.code, 1, said(judged));
  assert.equal(card.chargedTwice, 0, said(judged));
  assert.ok(card.chargesLost >= 800, said(judged));
  assert.ok(card.rateLimited >= 800, said(judged));
});

test("a Python client from the standard library, keyed, passes", async (t) => {
  if (spawnSync('python3', ['--version']).status !== 0) {
    t.skip('python3 is not installed');
    return;
  }
  const judged = await judge(['python3', 'tests/http/clients/keyed.py']);
  checkShape(judged);
  const { card } = judged.report;
  assert.equal(judged.code, 0, said(judged));
  assert.equal(card.chargedTwice, 0, said(judged));
  assert.equal(card.chargesLost, 0, said(judged));
  assert.equal(card.charges, 990, said(judged));
  // Its own summary went to judge's standard error: 990 charged, 10 declined.
  assert.match(judged.err, /1000 customers: 200: 990, 400: 10/, said(judged));
});

test('GET /report after a client that ran against `ratelab serve` on its own', async () => {
  const serve = await startServe([]);
  try {
    const { charge } = await import(pathToFileURL(path.join(ROOT, 'clients', 'keyed.js')).href);
    const ids = Array.from({ length: 200 }, (_, i) => i + 1);
    await Promise.all(ids.map((id) => charge(id, { baseUrl: serve.base })));
    const report = await (await fetch(`${serve.base}/report`)).json();
    assert.equal(report.card.customers, 200, JSON.stringify(report));
    assert.equal(report.card.chargedTwice, 0, JSON.stringify(report));
    assert.equal(report.card.chargesLost, 0, JSON.stringify(report));
    assert.equal(report.fails, false);
    // Beside it, the best of the built-ins that passed: naive and paced lose charges
    // and timeout-no-key charges twice, so the first that passed is retry.
    assert.equal(report.bestStrategy.chargedTwice, 'retry');
    // Never-seen customers 201..=250 are charges lost.
    const wider = await (await fetch(`${serve.base}/report?customers=250`)).json();
    assert.equal(wider.card.chargesLost, 50, JSON.stringify(wider));
    // A browser gets the page; a bad query a sentence.
    const page = await fetch(`${serve.base}/report`, { headers: { accept: 'text/html' } });
    assert.match(page.headers.get('content-type'), /^text\/html/);
    assert.match(await page.text(), /Passed: no customer was charged twice/);
    const bad = await fetch(`${serve.base}/report?customers=lots`);
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).error, /'lots' is not a whole number/);
  } finally {
    await serve.stop();
  }
});
