// The sandbox's benchmark (issue 48): how long a reader's client takes to run on the
// simulated clock in headless Chromium, from handing the frame the run to its answer
// (the worker's start and the module's compile included), against the same run of the
// built-in strategy natively. A benchmark, not a test: it prints figures and asserts
// nothing (docs/clients.md reports them).
//
//   node scripts/bench-sandbox.mjs [--runs 5] [--client clients/keyed.js]
// Needs `trunk build --release` and `cargo build --release --bin ratelab`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, serveDist, RATELAB } from './lab-server.mjs';
import { launch } from './throttled.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(arg('--runs', '5'));
const CLIENT = arg('--client', 'clients/keyed.js');
const strategy = path.basename(CLIENT, '.js');
const code = fs.readFileSync(path.join(ROOT, CLIENT), 'utf8');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const ms = (xs) => `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

const server = await serveDist(path.join(ROOT, 'dist'));
const browser = await launch();
const page = await browser.newPage();
await page.goto(`${server.base}headers.html`);
await page.evaluate(async () => {
  const [glue, harness, wasm] = await Promise.all([
    fetch('rate-limit-lab-sandbox.js').then((r) => r.text()),
    fetch('sandbox/harness.js').then((r) => r.text()),
    fetch('rate-limit-lab-sandbox_bg.wasm').then((r) => r.arrayBuffer()),
  ]);
  window.runClient = async (code, query) => {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.src = 'sandbox/index.html';
    await new Promise((resolve) => {
      addEventListener('message', function ready(e) {
        if (e.source === frame.contentWindow && e.data?.type === 'ready') {
          removeEventListener('message', ready);
          resolve();
        }
      });
      document.body.append(frame);
    });
    const t0 = performance.now();
    const result = await new Promise((resolve) => {
      addEventListener('message', function done(e) {
        if (e.source === frame.contentWindow && (e.data?.type === 'done' || e.data?.type === 'failed')) {
          removeEventListener('message', done);
          resolve(e.data);
        }
      });
      const bytes = wasm.slice(0);
      frame.contentWindow.postMessage({ type: 'run', glue, harness, code, query, wasm: bytes }, '*', [bytes]);
    });
    frame.remove();
    return { wallMs: performance.now() - t0, events: result.events, type: result.type, requests: result.results?.stats.requests };
  };
});
console.log(`${strategy}, default scenario, ${RUNS} runs each; wall time from handing the frame the run to its answer`);
for (const customers of [1000, 10000]) {
  const query = `seed=1&customers=${customers}`;
  const times = [];
  let last;
  for (let i = 0; i < RUNS; i++) {
    last = await page.evaluate(({ code, query }) => window.runClient(code, query), { code, query });
    times.push(last.wallMs);
  }
  const t0 = process.hrtime.bigint();
  const native = JSON.parse(execFileSync(RATELAB, ['charges', '--query', `strategy=${strategy}&${query}`, '--json'], { encoding: 'utf8' }));
  const nativeMs = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(`  ${customers.toLocaleString('en')} customers: sandbox ${ms(times)}, ${last.events.toLocaleString('en')} events; native built-in ${nativeMs.toFixed(0)} ms (the whole process); same requests: ${last.requests === native.requests}`);
}
await browser.close();
await server.close();
