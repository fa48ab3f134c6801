// The first load on a throttled phone link, for every page of the lab, beside a plain HTML
// page in the same run (this machine is noisy; the difference and the ratio to the plain
// page are what travel): the time until the first screen's picture shows, the time until
// the first control a reader needs works, and the bytes that had arrived by then. A
// benchmark, not a test: it prints figures and asserts nothing; with --write it also puts
// its table in docs/figures.md, in place of the last one (every page only).
//
//   node scripts/ready.mjs [--runs 5] [--dist dist] [--pages run,client]   (the plain page always)
//   node scripts/ready.mjs --runs 3 --write
//
// Each load is scripts/throttled.mjs's: Lighthouse's mobile throttling, a cold cache, the
// clocks from navigation start until the page's picture is visible and until the first
// control a reader needs is visible and enabled; served by `ratelab serve --dist`, which sends the build's .gz files as a
// static host does. To compare two builds, use
// scripts/ready-ab.mjs, which pairs their loads.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSection } from './figures.mjs';
import { arg, serveDist } from './lab-server.mjs';
import { PAGES as LAB_PAGES, firstLoad, launch, median } from './throttled.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(arg('--runs', '5'));
const DIST = path.resolve(arg('--dist', path.join(ROOT, 'dist')));

// The plain page: one paragraph and a button, no script.
const PLAIN =
  '<!doctype html><meta name="viewport" content="width=device-width"><title>plain</title>' +
  '<p>A plain page.</p><button id="go">Go</button>';
const wanted = arg('--pages', '').split(',').filter(Boolean);
const WRITE = process.argv.includes('--write');
if (WRITE && wanted.length > 0) {
  console.error('--write replaces the table of every page: leave out --pages');
  process.exit(2);
}
const unknown = wanted.filter((name) => !LAB_PAGES.some(([n]) => n === name));
if (unknown.length > 0) {
  console.error(`unknown page ${unknown.join(', ')} (pages: ${LAB_PAGES.map(([n]) => n).join(', ')})`);
  process.exit(2);
}
const PAGES = [['plain', 'plain.html', '#go', 'p'], ...LAB_PAGES.filter(([name]) => wanted.length === 0 || wanted.includes(name))];

// The machine's load over the last minute, at the start and at the end: other work on the
// same cores slows every page, the plain page least, so --write says it beside the table.
const loadAtStart = os.loadavg()[0];
const server = await serveDist(DIST, { extra: { 'plain.html': PLAIN } });
const base = server.base;
const browser = await launch();
const loads = Object.fromEntries(PAGES.map(([name]) => [name, []]));
// Interleaved, so a noisy minute touches every page alike.
for (let run = 0; run < RUNS; run += 1) {
  for (const [name, link, selector, picture] of PAGES) {
    loads[name].push(await firstLoad(browser, base + link, selector, picture));
  }
}
await browser.close();
await server.close();

const title = `first load, ${RUNS} cold loads each (150 ms RTT, 1.6 Mbps down, 750 kbps up, CPU ×4, gzip)`;
console.log(title);
console.log('page         picture  (− plain)   ready     min–max       × plain   bytes by ready  module in  start-up');
const s2 = (ms) => (ms / 1000).toFixed(2);
const plainPicture = median(loads.plain.map((l) => l.pictureMs));
const plain = median(loads.plain.map((l) => l.readyMs));
const rows = [];
for (const [name, link] of PAGES) {
  const ready = loads[name].map((l) => l.readyMs);
  const m = median(ready);
  const picture = median(loads[name].map((l) => l.pictureMs));
  const bytes = median(loads[name].map((l) => l.bytes));
  // When the page's module had arrived, and what ready waited for after it (each the
  // median over the loads, the second of each load's own difference).
  const arrived = loads[name].filter((l) => l.moduleMs !== null);
  const moduleIn = arrived.length > 0 ? s2(median(arrived.map((l) => l.moduleMs))) : '—';
  const startUp = arrived.length > 0 ? s2(median(arrived.map((l) => l.readyMs - l.moduleMs))) : '—';
  const [med, lo, hi] = [m, Math.min(...ready), Math.max(...ready)].map(s2);
  const after = `${picture >= plainPicture ? '+' : '−'}${s2(Math.abs(picture - plainPicture))}`;
  const ratio = (m / plain).toFixed(2);
  const kb = `${(bytes / 1000).toFixed(1)} kB`;
  const unit = (x) => (x === '—' ? x : `${x} s`);
  console.log(`${name.padEnd(11)} ${s2(picture).padStart(6)} s (${after.padStart(6)})  ${med.padStart(6)} s  ${lo}–${hi} s  ${ratio.padStart(6)}  ${kb.padStart(10)}  ${unit(moduleIn).padStart(9)}  ${unit(startUp).padStart(8)}`);
  rows.push(`| ${name} | ${name === 'plain' ? 'a plain HTML page' : `\`${link || './'}\``} | ${s2(picture)} s | ${after} s | ${med} s | ${lo}–${hi} s | ${ratio} | ${kb} | ${unit(moduleIn)} | ${unit(startUp)} |`);
}

if (WRITE) {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const cpus = os.cpus();
  const day = new Date().toISOString().slice(0, 10);
  const load = `${loadAtStart.toFixed(1)} at the start and ${os.loadavg()[0].toFixed(1)} at the end`;
  writeSection(
    'ready',
    [
      '## Time to ready',
      '',
      `Written by \`node scripts/ready.mjs --runs ${RUNS} --write\` on ${day}, the repository at ${commit},`,
      `on a machine with ${cpus.length} logical CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), its load average`,
      `${load}: ${RUNS} cold loads of each page, interleaved, on a throttled phone link (150 ms`,
      'round trip, 1.6 Mbit/s down, 750 kbit/s up, CPU slowed 4 times), served by `ratelab serve',
      '--dist`. The plain page is loaded in the same run; the difference and the ratio to it are',
      'what carry over to another machine. *Picture*: until the first screen\'s picture shows',
      '(the opening\'s drawings, the stage, the table: `scripts/throttled.mjs` names each);',
      '*ready*: until the first control a reader needs is visible and enabled; *bytes*: what the',
      'page\'s document had received by then (its file and every file finished, headers included);',
      '*module in*: when the last WebAssembly module it had by then finished arriving (at the bare',
      'address, the opening\'s); *start-up*: ready less that, each load\'s own (compiling,',
      'instantiating and mounting the module, and the page\'s first layout): the bytes before it,',
      'the work after it. Medians.',
      '',
      '| page | opened as | picture | picture − plain | ready | min–max | × plain | bytes by ready | module in | start-up |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
    ].join('\n'),
  );
  console.log('wrote docs/figures.md, section ready');
}
