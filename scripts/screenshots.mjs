// Screenshots to look at, as a reader would see the lab: a script, not a test (it asserts
// nothing). Serves dist/ and writes PNGs to target/screenshots/.
//
//   node scripts/screenshots.mjs            every view below
//   node scripts/screenshots.mjs limits     only the shots whose name contains "limits"
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveDist } from './lab-server.mjs';
import { launch } from './throttled.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'target', 'screenshots');
const only = process.argv[2] ?? '';

const TEACHER = { width: 1366, height: 768 };
const PHONE = { width: 375, height: 800, isMobile: true, deviceScaleFactor: 2 };
const limits = (name, extra = '') => `?section=limits&experiment=${name}&seed=1${extra}`;
const limitsDone = (name) => `[data-testid="limits"][data-state="done"][data-experiment="${name}"]`;

// [file name, viewport, link, what to wait for]
const SHOTS = [];
for (const [tag, viewport] of [['1366', TEACHER], ['375', PHONE]]) {
  SHOTS.push([`run-keyed-${tag}`, viewport, 'run.html?strategy=keyed&seed=1&speed=instant', '[data-testid="app"][data-run-state="done"]']);
  SHOTS.push([`compare-${tag}`, viewport, 'compare.html?view=compare&seed=1', '[data-testid="compare"][data-state="done"]']);
  SHOTS.push([`matrix-${tag}`, viewport, 'matrix.html?view=matrix&seed=1', '[data-cell] a']);
  SHOTS.push([`headers-${tag}`, viewport, 'headers.html?section=headers', '[data-testid="reader-result"]']);
  for (const [name, extra] of [['burst', '&burstGapMs=400'], ['herd', '&herdJitter=decorrelated'], ['memory', ''], ['clients', '']]) {
    SHOTS.push([`limits-${name}-${tag}`, viewport, `limits.html${limits(name, extra)}`, limitsDone(name)]);
  }
}

fs.mkdirSync(OUT, { recursive: true });
const server = await serveDist(path.join(ROOT, 'dist'));
const browser = await launch();
for (const [name, viewport, link, ready] of SHOTS.filter(([n]) => n.includes(only))) {
  const { isMobile = false, deviceScaleFactor = 1, ...size } = viewport;
  const context = await browser.newContext({ viewport: size, isMobile, deviceScaleFactor });
  const page = await context.newPage();
  await page.goto(server.base + link);
  await page.waitForSelector(ready, { timeout: 30_000 });
  await page.waitForTimeout(200);
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(file);
  await context.close();
}
await browser.close();
await server.close();
