// The simulation worker's benchmark (issue 33): in one run on one machine, the core in
// the browser's worker against the native CLI, and sweeps on one worker, on every core
// and on the page's own thread. A benchmark, not a test: it prints figures and asserts
// nothing (the README and docs/sizes-and-speeds.md report them).
//
//   node scripts/bench-workers.mjs [--runs 5] [--big 10000000] [--before <dist>]
//
// It measures the build in dist/, or in $RLL_DIST if set.
//
// - 1,000,000 customers keyed: the release CLI (`ratelab charges`, wall time of the whole
//   process, and its peak memory from /usr/bin/time) against the worker (from the message
//   that hands it the run to the answer, the module already loaded), and the ratio. The
//   message is the run page's own: the job it hands its worker for that run, noted as the
//   page posts it, then handed to a fresh worker;
// - the run page opened on that run: from the navigation to `done`, the page's load
//   included;
// - `--big` customers keyed in the worker (10,000,000 by default; 0 skips it), with the
//   worker's memory after the run (a WebAssembly memory only grows: the most it held);
// - the sweep page's 200 seeds × all ten strategies on the page's own thread, on 1 worker
//   and on every core the browser reports (its own `data-took-ms`): opened by its link
//   (the workers load as it starts) and run again from its button (warm workers);
// - with `--before <dist>`, a build from before the worker: paired throttled time to
//   ready of the first pages (scripts/ready-ab.mjs), to show the first load did not move.
// Needs `trunk build --release` and `cargo build --release --bin ratelab`.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, serveDist, RATELAB } from './lab-server.mjs';
import { launch } from './throttled.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(arg('--runs', '5'));
const BIG = Number(arg('--big', '10000000'));
const BEFORE = arg('--before', null);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const range = (xs) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
const ms = (xs) => `${median(xs).toFixed(0)} ms (${range(xs)})`;

// Native: the whole process, as a reader runs it.
const nativeArgs = ['charges', '--strategy', 'keyed', '--customers', '1000000', '--json'];
const native = [];
let nativeJson = null;
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  nativeJson = JSON.parse(execFileSync(RATELAB, nativeArgs, { encoding: 'utf8', maxBuffer: 1 << 24 }));
  native.push(performance.now() - t0);
}
const timed = spawnSync('/usr/bin/time', ['-f', '%M', RATELAB, ...nativeArgs], { encoding: 'utf8' });
const nativeKb = Number(timed.stderr.trim().split('\n').pop());

const server = await serveDist(process.env.RLL_DIST ?? path.join(ROOT, 'dist'));
const browser = await launch();
const page = await (await browser.newContext()).newPage();
await page.goto(`${server.base}run.html?seed=1`);
await page.waitForSelector('[data-strategy]');

/** The job the run page hands its worker for `query` (an instant run), noted as the page
 * posts it and never sent. */
async function jobOf(query) {
  const p = await (await browser.newContext()).newPage();
  await p.addInitScript(() => {
    Worker.prototype.postMessage = function (message) {
      window.heldJob = message.job;
    };
  });
  await p.goto(`${server.base}run.html?${query}&speed=instant`);
  const job = await p.waitForFunction(() => window.heldJob && [...window.heldJob].map(String));
  const words = await job.jsonValue();
  await p.context().close();
  return words;
}

/** Runs `job` (its words) in a fresh worker `runs` times, once the worker has loaded its
 * module (a message it refuses): the wall times from hand-out to answer, and the
 * worker's memory. */
const inWorker = (job, runs) =>
  page.evaluate(
    async ({ base, job, runs }) => {
      const worker = new Worker(`${base}sim-worker.js`, { type: 'module' });
      const ask = (words) =>
        new Promise((resolve, reject) => {
          const t0 = performance.now();
          worker.onmessage = ({ data }) => {
            if (data.answer) resolve({ ms: performance.now() - t0, memory: data.memory });
            else if (data.error) (words.length ? reject(new Error(data.error)) : resolve(null));
          };
          worker.postMessage({ id: 1, job: new BigUint64Array(words.map(BigInt)) });
        });
      await ask([]);
      const out = [];
      for (let i = 0; i < runs; i++) out.push(await ask(job));
      worker.terminate();
      return out;
    },
    { base: server.base, job, runs },
  );

const million = await inWorker(await jobOf('strategy=keyed&seed=1&customers=1000000'), RUNS);
const workerMs = million.map((r) => r.ms);

console.log(`1,000,000 customers keyed, seed 1 (median of ${RUNS}, range):`);
console.log(`  native CLI             ${ms(native)}, peak ${(nativeKb / 1024).toFixed(0)} MB resident`);
console.log(`  browser, in the worker ${ms(workerMs)}, worker memory ${(million[0].memory / 2 ** 20).toFixed(0)} MB`);
console.log(`  browser ÷ native       ${(median(workerMs) / median(native)).toFixed(2)}×`);

if (BIG > 0) {
  const t0 = performance.now();
  const nativeBig = JSON.parse(execFileSync(RATELAB, ['charges', '--strategy', 'keyed', '--customers', String(BIG), '--json'], { encoding: 'utf8' }));
  const nativeBigMs = performance.now() - t0;
  try {
    const [big] = await inWorker(await jobOf(`strategy=keyed&seed=1&customers=${BIG}`), 1);
    console.log(`${BIG.toLocaleString('en')} customers keyed, seed 1, once (${nativeBig.customersCharged.toLocaleString('en')} charged natively):`);
    console.log(`  native CLI             ${nativeBigMs.toFixed(0)} ms`);
    console.log(`  browser, in the worker ${big.ms.toFixed(0)} ms, worker memory ${(big.memory / 2 ** 20).toFixed(0)} MB (${(big.ms / nativeBigMs).toFixed(2)}× native)`);
  } catch (error) {
    console.log(`${BIG.toLocaleString('en')} customers keyed in the worker: failed (${error.message})`);
  }
}

// The run page opened on a million-customer instant run: from the navigation to `done`,
// the page's own load included (the worker loads once the page has mounted).
const opened = [];
let same = true;
for (let i = 0; i < RUNS; i++) {
  const p = await (await browser.newContext()).newPage();
  await p.goto(`${server.base}run.html?strategy=keyed&seed=1&customers=1000000&speed=instant`);
  await p.waitForSelector('[data-testid="app"][data-run-state="done"]', { timeout: 120_000 });
  opened.push(await p.evaluate(() => performance.now()));
  const run = await p.evaluate(() => window.rateLimitLab.lastRun);
  same &&= run.customersCharged === nativeJson.customersCharged && run.requests === nativeJson.requests;
  await p.context().close();
}
console.log(`run.html?strategy=keyed&seed=1&customers=1000000&speed=instant, navigation to done: ${ms(opened)} (same requests and charges as the CLI: ${same})`);

/** The sweep page's own times for 200 seeds of every strategy on `workers` workers: a
 * link that starts the sweep as the page opens (its workers load then), and the sweep
 * run again from its button (the workers are loaded and warm). */
async function sweep(workers) {
  const p = await (await browser.newContext()).newPage();
  await p.addInitScript((n) => { window.rateLimitLabWorkers = n; }, workers);
  await p.goto(`${server.base}sweep.html?view=sweep&strategy=all&seeds=200`);
  const done = '[data-testid="sweep"][data-state="done"]';
  await p.waitForSelector(done, { timeout: 300_000 });
  const took = () => p.getAttribute('[data-testid="sweep"]', 'data-took-ms').then(Number);
  const cold = await took();
  await p.click('[data-testid="sweep-run"]');
  await p.waitForSelector('[data-testid="sweep"][data-state="running"]');
  await p.waitForSelector(done, { timeout: 300_000 });
  const warm = await took();
  await p.context().close();
  return { cold, warm };
}
const cores = await page.evaluate(() => navigator.hardwareConcurrency);
console.log(`200 seeds × 10 strategies, the sweep page's own time (median of ${RUNS}, range; this machine reports ${cores} cores):`);
console.log('  where                  opened by its link          run again from its button');
const counts = [0, ...new Set([1, 2, 4, cores].filter((n) => n <= cores))].sort((a, b) => a - b);
let one = null;
for (const n of counts) {
  const cold = [];
  const warm = [];
  for (let i = 0; i < RUNS; i++) {
    const t = await sweep(n);
    cold.push(t.cold);
    warm.push(t.warm);
  }
  if (n === 1) one = median(warm);
  const speedUp = n >= 1 && one ? ` = ${(one / median(warm)).toFixed(2)}× one worker` : '';
  const where = n === 0 ? "the page's own thread" : `${n} worker${n > 1 ? 's' : ''}`;
  console.log(`  ${where.padEnd(22)} ${ms(cold).padEnd(27)} ${ms(warm)}${speedUp}`);
}
await browser.close();
await server.close();

if (BEFORE) {
  console.log(`time to ready, ${BEFORE} (A) against dist (B):`);
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'ready-ab.mjs'), '--a', BEFORE, '--b', path.join(ROOT, 'dist'), '--runs', '6', '--pages', 'first,run,sweep,compare'], { stdio: 'inherit' });
}
