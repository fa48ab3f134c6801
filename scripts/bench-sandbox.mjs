// The sandbox's benchmark (issue 48): how long a reader's client takes to run on the
// simulated clock in headless Chromium, from handing the frame the run to its answer
// (the worker's start and the module's compile included), against the same run of the
// built-in strategy natively. A benchmark, not a test: it prints figures and asserts
// nothing (docs/clients.md explains them); with --write it also puts them in
// docs/figures.md, in place of the last ones.
//
//   node scripts/bench-sandbox.mjs [--runs 5] [--client clients/keyed.js] [--write]
// Needs `trunk build --release` and `cargo build --release --bin ratelab`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSection } from './figures.mjs';
import { arg, serveDist, RATELAB } from './lab-server.mjs';
import { launch } from './throttled.mjs';
import { installRunClient } from './sandbox-page.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(arg('--runs', '5'));
const CLIENT = arg('--client', 'clients/keyed.js');
const strategy = path.basename(CLIENT, '.js');
const code = fs.readFileSync(path.join(ROOT, CLIENT), 'utf8');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const printed = [];
/** Prints a line of the figures, and keeps it for --write. */
const say = (line) => {
  console.log(line);
  printed.push(line);
};
const ms = (xs) => `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

const server = await serveDist(path.join(ROOT, 'dist'));
const browser = await launch();
const page = await browser.newPage();
await page.goto(`${server.base}headers.html`);
await installRunClient(page);
say(`${strategy}, default scenario, ${RUNS} runs each; wall time from handing the frame the run to its answer`);
for (const customers of [1000, 10000]) {
  const query = `seed=1&customers=${customers}`;
  const times = [];
  let last;
  for (let i = 0; i < RUNS; i++) {
    last = await page.evaluate(async ({ code, query }) => {
      const r = await window.runClient(code, query);
      return { wallMs: r.pageMs, events: r.events, type: r.type, requests: r.results?.stats.requests };
    }, { code, query });
    times.push(last.wallMs);
  }
  const t0 = process.hrtime.bigint();
  const native = JSON.parse(execFileSync(RATELAB, ['charges', '--query', `strategy=${strategy}&${query}`, '--json'], { encoding: 'utf8' }));
  const nativeMs = Number(process.hrtime.bigint() - t0) / 1e6;
  say(`  ${customers.toLocaleString('en')} customers: sandbox ${ms(times)}, ${last.events.toLocaleString('en')} events; native built-in ${nativeMs.toFixed(0)} ms (the whole process); same requests: ${last.requests === native.requests}`);
}
await page.close();

// The whole view, as a reader meets it: client.html with the lab's client in the editor,
// from pressing Run until the panels are on screen (the sandbox's run, the page's replay
// of its calls and the ten built-ins for the card), and the longest task the page's own
// thread ran meanwhile (a PerformanceObserver of long tasks: 50 ms and over).
say(`the client view, ${strategy} from its picker, ${RUNS} runs each; wall time from Run to the panels, and the page's longest task`);
for (const customers of [1000, 10000]) {
  const times = [];
  const longest = [];
  for (let i = 0; i < RUNS; i++) {
    const view = await browser.newPage();
    await view.goto(`${server.base}client.html?view=client&seed=1&customers=${customers}&strategy=${strategy}`);
    await view.waitForSelector('.cm-content');
    await view.waitForFunction(() => document.querySelector('.cm-content').textContent.includes('charge'));
    await view.evaluate(() => {
      window.longest = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.longest = Math.max(window.longest, e.duration);
      }).observe({ type: 'longtask' });
    });
    const t0 = Date.now();
    await view.click('[data-testid="client-run"]');
    await view.waitForSelector('[data-testid="client-report"]', { timeout: 120_000 });
    times.push(Date.now() - t0);
    longest.push(await view.evaluate(() => window.longest));
    await view.close();
  }
  const tasks = longest.every((x) => x === 0) ? 'none of 50 ms or more' : `longest ${ms(longest)}`;
  say(`  ${customers.toLocaleString('en')} customers: Run to panels ${ms(times)}; page's long tasks during the run: ${tasks}`);
}
await browser.close();
await server.close();

if (process.argv.includes('--write')) {
  const cpus = os.cpus();
  const day = new Date().toISOString().slice(0, 10);
  const command = process.argv.slice(2).join(' ');
  writeSection(
    'sandbox',
    [
      '## The sandbox',
      '',
      `Written by \`node scripts/bench-sandbox.mjs ${command}\` on ${day}, on a machine with`,
      `${cpus.length} logical CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), headless Chromium, no throttling`,
      '([clients.md](clients.md#how-fast) says what each figure covers):',
      '',
      ...printed.map((line) => (line.startsWith('  ') ? `- ${line.trim()}` : `\n${line}:\n`)),
    ].join('\n'),
  );
  console.log('wrote docs/figures.md, section sandbox');
}
