// The sandbox (issue 48): a reader's own client, pasted, runs in a worker inside a frame
// with an opaque origin, on the simulated clock, against the simulation's provider. The
// project's own JavaScript for each of the ten strategies (clients/*.js) must give the
// built-in strategy's numbers exactly, and bad code must get a sentence while the page
// stays alive. The lab side here is the few lines any page that runs a client has: open
// the frame, hand it the module, the harness, the code and the run's query, and read
// what comes back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useLab, openPage, cli, ROOT } from './harness.mjs';
import { installRunClient } from '../../scripts/sandbox-page.mjs';

const lab = useLab(before, after);
const STRATEGIES = ['naive', 'paced', 'retry', 'timeout-no-key', 'keyed', 'pool', 'headers', 'budget', 'breaker', 'adaptive'];
const FIELDS = ['requests', 'charges', 'customersCharged', 'duplicates', 'maxInflight', 'rateLimited', 'overloaded', 'serverErrors', 'slow', 'inProgressConflicts', 'declined', 'replayed', 'retriedDeclined', 'gaveUp', 'elapsedMs', 'waitP50Ms', 'waitP99Ms', 'waitMaxMs', 'requestsPer100Customers', 'goodputRecoveryMs', 'gaveUpCharged'];
const code = (strategy) => fs.readFileSync(path.join(ROOT, 'clients', `${strategy}.js`), 'utf8');

/** A page of the lab with `window.runClient(code, query)`: the run's results, or why not. */
async function sandboxPage() {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}headers.html`);
  await installRunClient(page);
  return page;
}

/** The fields where the sandbox's run differs from the CLI's built-in one. */
function differences(result, strategy, query) {
  const expected = cli(['charges', '--query', `strategy=${strategy}&${query}`]);
  assert.equal(result.type, 'done', `${strategy} ${query}: ${JSON.stringify(result.report)} ${JSON.stringify(result.errors)}`);
  assert.equal(result.unfinished, 0, `${strategy} ${query}`);
  assert.deepEqual(result.errors, [], `${strategy} ${query}`);
  return FIELDS.filter((f) => result.results.stats[f] !== expected[f]).map((f) => `${f}: sandbox ${result.results.stats[f]}, built-in ${expected[f]}`);
}

test('the project\'s JavaScript for each of the ten strategies gives the built-in run exactly, seeds 1 to 20', async () => {
  const page = await sandboxPage();
  const found = [];
  for (const strategy of STRATEGIES) {
    const source = code(strategy);
    for (let seed = 1; seed <= 20; seed++) {
      const result = await page.evaluate(({ source, seed }) => window.runClient(source, `seed=${seed}`), { source, seed });
      const diff = differences(result, strategy, `seed=${seed}`);
      if (diff.length > 0) found.push(`${strategy} seed ${seed}: ${diff.join('; ')}`);
    }
  }
  assert.deepEqual(found, []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('and under an outage, with steady traffic and a queue, and the other incidents', async () => {
  const page = await sandboxPage();
  const found = [];
  const outage = 'customers=3180&maxInflight=1&slowRate=0&incident=down&incidentStartMs=10000&queue=1000&traffic=steady&rate=53';
  for (const query of [`seed=1&${outage}`, 'seed=3&incident=down&incidentStartMs=2000', 'seed=4&incident=errors', 'seed=5&incident=slow', 'seed=6&incident=capacity']) {
    for (const strategy of STRATEGIES) {
      const source = code(strategy);
      const result = await page.evaluate(({ source, query }) => window.runClient(source, query), { source, query });
      const diff = differences(result, strategy, query);
      if (diff.length > 0) found.push(`${strategy} ${query}: ${diff.join('; ')}`);
    }
  }
  assert.deepEqual(found, []);
  await page.context().close();
});

test('the sandbox has no network, no storage and no way to the lab\'s page', async () => {
  const page = await sandboxPage();
  const probe = `
    export async function charge(id, { baseUrl }) {
      if (id !== 1) return;
      const tries = {
        network: () => fetch('https://example.com/'),
        realFetch: () => WorkerGlobalScope.prototype.fetch.call(self, 'https://example.com/'),
        lab: () => fetch(location.origin + '/index.html'),
        storage: () => indexedDB.open('x'),
        xhr: () => new XMLHttpRequest(),
        socket: () => new WebSocket('wss://example.com/'),
        scripts: () => importScripts('https://example.com/x.js'),
        page: () => self.parent.document.title,
        evaluate: () => eval('1 + 1'),
      };
      for (const [name, attempt] of Object.entries(tries)) {
        try {
          await attempt();
          console.log(name + ': allowed');
        } catch (error) {
          console.log(name + ': refused');
        }
      }
    }`;
  const result = await page.evaluate((source) => window.runClient(source, 'seed=1&customers=1'), probe);
  assert.equal(result.type, 'done', JSON.stringify(result));
  const lines = result.log.map((l) => l.text);
  assert.deepEqual(lines, ['network: refused', 'realFetch: refused', 'lab: refused', 'storage: refused', 'xhr: refused', 'socket: refused', 'scripts: refused', 'page: refused', 'evaluate: refused']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the clock, the timers, Math.random and console.log are the run\'s', async () => {
  const page = await sandboxPage();
  const source = `
    export async function charge(id) {
      const t0 = performance.now();
      const d0 = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 250.5));
      const ticks = [];
      await new Promise((resolve) => {
        const every = setInterval(() => { ticks.push(performance.now()); if (ticks.length === 3) { clearInterval(every); resolve(); } }, 10);
      });
      let aborted = null;
      try { await new Promise((_, reject) => { const s = AbortSignal.timeout(5); s.addEventListener('abort', () => reject(s.reason)); }); } catch (e) { aborted = e.name; }
      console.log(JSON.stringify({ t0, waited: ticks[0] - t0, ticks, dateMoved: Date.now() - d0, aborted, random: Math.random() }));
    }`;
  const a = await page.evaluate((s) => window.runClient(s, 'seed=7&customers=1'), source);
  const b = await page.evaluate((s) => window.runClient(s, 'seed=7&customers=1'), source);
  assert.equal(a.type, 'done', JSON.stringify(a));
  const said = JSON.parse(a.log[0].text);
  assert.equal(said.t0, 0);
  assert.equal(said.waited, 260.5, 'the timeout waited 250.5 ms to the microsecond, then one interval');
  assert.deepEqual(said.ticks, [260.5, 270.5, 280.5]);
  assert.equal(said.dateMoved, 285, 'Date.now moved with the clock, in whole ms (read at the log line, after the 5 ms abort)');
  assert.equal(said.aborted, 'TimeoutError');
  assert.equal(a.log[0].tUs, 285_500, 'the line is stamped with the simulated instant it was written at');
  assert.deepEqual(a.log, b.log, 'the same code and seed, the same run');
  const c = await page.evaluate((s) => window.runClient(s, 'seed=8&customers=1'), source);
  assert.notEqual(JSON.parse(c.log[0].text).random, said.random, 'Math.random follows the seed');
  await page.context().close();
});

test('bad code gets a sentence, with its line, and the page stays alive', async () => {
  const page = await sandboxPage();
  const run = (source, query = 'seed=1&customers=20') => page.evaluate(({ source, query }) => window.runClient(source, query), { source, query });
  // A syntax error: its line and column in the reader's code.
  const syntax = await run('export async function charge(id) {\n  return id +;\n}');
  assert.equal(syntax.type, 'failed');
  assert.equal(syntax.report.kind, 'syntax');
  assert.match(syntax.report.message, /SyntaxError/);
  assert.equal(syntax.report.line, 2);
  // No charge function.
  const none = await run('const x = 1;');
  assert.equal(none.report.kind, 'no-charge');
  // An import, and a default export.
  assert.deepEqual((await run('import x from "y";\nexport async function charge() {}')).report, { kind: 'import', line: 1, column: 1 });
  assert.equal((await run('export default async function charge() {}')).report.kind, 'default-export');
  // A throw inside charge: the customer is settled, the exception named with its line.
  const thrown = await run('export async function charge(id) {\n  if (id === 3) {\n    throw new Error("card lost");\n  }\n}');
  assert.equal(thrown.type, 'done', JSON.stringify(thrown));
  assert.equal(thrown.errors.length, 1, JSON.stringify(thrown));
  assert.equal(thrown.errors[0].kind, 'charge rejected');
  assert.equal(thrown.errors[0].message, 'card lost');
  assert.equal(thrown.errors[0].line, 3);
  // A promise that never settles: the run ends, and says how many customers were left.
  const stuck = await run('export async function charge(id) {\n  if (id % 2 === 0) await new Promise(() => {});\n}');
  assert.equal(stuck.type, 'done');
  assert.equal(stuck.unfinished, 10);
  assert.equal(stuck.results.card.unfinished, 10);
  // An unhandled rejection, with its line.
  const unhandled = await run('export async function charge(id) {\n  Promise.reject(new Error("nobody caught me"));\n}', 'seed=1&customers=1');
  assert.equal(unhandled.errors[0].kind, 'unhandled rejection');
  assert.equal(unhandled.errors[0].line, 2);
  // Code that never gives the clock back: the watchdog stops it.
  const t0 = Date.now();
  const loop = await run('export async function charge(id) {\n  while (true) {}\n}');
  assert.equal(loop.type, 'failed');
  assert.deepEqual(loop.report, { kind: 'watchdog', n: 3000 });
  assert.ok(Date.now() - t0 < 8000);
  // Runaway requests: stopped at the cap, with a sentence.
  const flood = await run('export async function charge(id, { baseUrl }) {\n  for (;;) await fetch(baseUrl + "/charge", { method: "POST", body: JSON.stringify({ id }) });\n}', 'seed=1&customers=2');
  assert.equal(flood.type, 'done');
  assert.equal(flood.stopped.kind, 'refused');
  assert.match(flood.stopped.message, /the most a run takes \(100 per customer\)/);
  // The page is alive and answers.
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
