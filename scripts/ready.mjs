// Time to ready on a throttled phone link, for every page of the lab, beside a plain HTML
// page in the same run (this machine is noisy; the ratio to the plain page is what
// travels). A benchmark, not a test: it prints figures for docs/sizes-and-speeds.md and asserts nothing.
//
//   node scripts/ready.mjs [--runs 5] [--dist dist] [--pages run,client]   (the plain page always)
//
// Each load is scripts/throttled.mjs's: Lighthouse's mobile throttling, a cold cache, the
// clock from navigation start until the first control a reader needs is visible and
// enabled; served by `ratelab serve --dist`, which sends the build's .gz files as a
// static host does. To compare two builds, use
// scripts/ready-ab.mjs, which pairs their loads.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, serveDist } from './lab-server.mjs';
import { PAGES as LAB_PAGES, launch, median, timeToReady } from './throttled.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(arg('--runs', '5'));
const DIST = path.resolve(arg('--dist', path.join(ROOT, 'dist')));

// The plain page: one paragraph and a button, no script.
const PLAIN =
  '<!doctype html><meta name="viewport" content="width=device-width"><title>plain</title>' +
  '<p>A plain page.</p><button id="go">Go</button>';
const wanted = arg('--pages', '').split(',').filter(Boolean);
const unknown = wanted.filter((name) => !LAB_PAGES.some(([n]) => n === name));
if (unknown.length > 0) {
  console.error(`unknown page ${unknown.join(', ')} (pages: ${LAB_PAGES.map(([n]) => n).join(', ')})`);
  process.exit(2);
}
const PAGES = [['plain', 'plain.html', '#go'], ...LAB_PAGES.filter(([name]) => wanted.length === 0 || wanted.includes(name))];

const server = await serveDist(DIST, { extra: { 'plain.html': PLAIN } });
const base = server.base;
const browser = await launch();
const times = Object.fromEntries(PAGES.map(([name]) => [name, []]));
// Interleaved, so a noisy minute touches every page alike.
for (let run = 0; run < RUNS; run += 1) {
  for (const [name, link, selector] of PAGES) {
    times[name].push(await timeToReady(browser, base + link, selector));
  }
}
await browser.close();
await server.close();

console.log(`time to ready, ${RUNS} cold loads each (150 ms RTT, 1.6 Mbps down, 750 kbps up, CPU ×4, gzip)`);
console.log('page         median     min–max       × plain');
const plain = median(times.plain);
for (const [name] of PAGES) {
  const xs = times[name];
  const m = median(xs);
  const line = `${name.padEnd(11)} ${(m / 1000).toFixed(2).padStart(6)} s  ${(Math.min(...xs) / 1000).toFixed(2)}–${(Math.max(...xs) / 1000).toFixed(2)} s  ${(m / plain).toFixed(2).padStart(6)}`;
  console.log(line);
}
