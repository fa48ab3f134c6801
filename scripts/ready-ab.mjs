// Two builds of the lab, paired: for each page, one throttled cold load of each build, the
// order alternating from pair to pair, repeated; for the first screen's picture and for
// the first control, the median of the differences, and their mean with its 95% interval. On a noisy machine the pairs' differences are steadier than
// two separate runs of scripts/ready.mjs, so this is how a change to the first load is
// judged before it is kept (docs/sizes-and-speeds.md, "Time to ready").
// A benchmark, not a test: it prints figures and asserts nothing.
//
//   node scripts/ready-ab.mjs --a <dist A> --b <dist B> [--runs 8] [--pages run,compare]
import path from 'node:path';
import { arg, serveDist } from './lab-server.mjs';
import { PAGES, firstLoad, launch, median } from './throttled.mjs';

const A = arg('--a', null);
const B = arg('--b', null);
if (!A || !B) {
  console.error('usage: node scripts/ready-ab.mjs --a <dist A> --b <dist B> [--runs 8] [--pages run,compare]');
  process.exit(2);
}
const RUNS = Number(arg('--runs', '8'));
const wanted = arg('--pages', PAGES.map(([name]) => name).join(',')).split(',');
const unknown = wanted.filter((name) => !PAGES.some(([n]) => n === name));
if (unknown.length > 0 || !(RUNS >= 1)) {
  console.error(`unknown page ${unknown.join(', ')} (pages: ${PAGES.map(([n]) => n).join(', ')}), or --runs is not a positive number`);
  process.exit(2);
}
const pages = PAGES.filter(([name]) => wanted.includes(name));

const servers = [await serveDist(path.resolve(A)), await serveDist(path.resolve(B))];
const [baseA, baseB] = servers.map((s) => s.base);
const browser = await launch();
const diffs = Object.fromEntries(pages.map(([name]) => [name, { a: [], b: [] }]));
const pictures = Object.fromEntries(pages.map(([name]) => [name, { a: [], b: [] }]));
for (let run = 0; run < RUNS; run += 1) {
  for (const [name, link, selector, picture] of pages) {
    // The order alternates, so that whatever favours a pair's first (or second) load
    // falls on both builds alike.
    const order = run % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
    for (const build of order) {
      const load = await firstLoad(browser, (build === 'a' ? baseA : baseB) + link, selector, picture);
      diffs[name][build].push(load.readyMs);
      pictures[name][build].push(load.pictureMs);
    }
  }
}
await browser.close();
await Promise.all(servers.map((s) => s.close()));

console.log(`A = ${A}, B = ${B}: ${RUNS} pairs of cold throttled loads per page`);
console.log('page, until   A median  B median  B − A: median of pairs, mean ± 95%  (B faster in n of pairs)');
// Student's t at 95%, two-sided, for the pairs' count (1.96 from 30 pairs on).
const T95 = [12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13, 2.12, 2.11, 2.1, 2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05, 2.05];
const line = (label, { a, b }) => {
  const d = a.map((x, i) => b[i] - x);
  const faster = d.filter((x) => x < 0).length;
  const mean = d.reduce((sum, x) => sum + x, 0) / d.length;
  const spread = d.length > 1 ? Math.sqrt(d.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (d.length - 1)) : NaN;
  const half = (T95[d.length - 2] ?? 1.96) * spread / Math.sqrt(d.length);
  console.log(`${label.padEnd(13)} ${(median(a) / 1000).toFixed(2).padStart(6)} s  ${(median(b) / 1000).toFixed(2).padStart(6)} s  ${median(d).toFixed(0).padStart(8)} ms, ${mean.toFixed(0)} ± ${half.toFixed(0)} ms  (${faster} of ${RUNS})`);
};
// Each page until its first screen's picture shows, then until its first control is ready.
for (const [name] of pages) {
  line(`${name}, picture`, pictures[name]);
  line(`${name}, ready`, diffs[name]);
}
