// docs/figures.md is written by scripts/figures.mjs from a release build; this holds it to
// the build in dist/ (the suite runs after `trunk build --release`; FIGURES_DIST names
// another build). A size may differ from the build's by max(0.5%, 512 B): a release build
// on another machine, or after a change that moves a module by a few bytes, need not
// rewrite the file, but a change a reader would notice must (run the script again). The
// modules listed must be the modules the build makes, so a page added or removed fails
// here until the file is written again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIGURES, modulesOf, parseBytes, rows, section, sizeOf } from '../../scripts/figures.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = path.resolve(process.env.FIGURES_DIST ?? path.join(ROOT, 'dist'));

/** How far a written size may be from the build's. */
export const tolerance = (bytes) => Math.max(Math.ceil(bytes * 0.005), 512);

function built() {
  assert.ok(
    fs.existsSync(path.join(DIST, 'loader.js.gz')),
    `${DIST} holds no release build: run trunk build --release (or set FIGURES_DIST)`,
  );
  return DIST;
}

/** The sizes section's rows that name a file: [file, raw, shipped]. */
function written(text) {
  const sizes = section(text, 'sizes');
  assert.ok(sizes, 'docs/figures.md has its sizes section');
  const out = [];
  let head = null;
  for (const line of sizes.split('\n')) {
    if (!line.startsWith('| ')) {
      head = null;
      continue;
    }
    const cells = rows(line)[0];
    if (!cells) continue; // the rule under a header
    if (!head) {
      head = cells;
      continue;
    }
    const file = cells[0].match(/^`([^`]+)`$/)?.[1];
    if (!file) continue;
    const raw = head.findIndex((h) => h.includes('raw'));
    const shipped = head.indexOf('shipped');
    out.push([file, parseBytes(cells[raw]), parseBytes(cells[shipped])]);
  }
  return out;
}

/** Each size written in `text` that is not the build's, in words. */
export function sizeProblems(text, dist) {
  const problems = [];
  for (const [file, raw, shipped] of written(text)) {
    if (!fs.existsSync(path.join(dist, file))) {
      problems.push(`${file}: listed, but the build has no such file`);
      continue;
    }
    const real = sizeOf(dist, file);
    for (const [what, said, is] of [['raw', raw, real.raw], ['shipped', shipped, real.shipped]]) {
      if (said === null || is === null) {
        if (said !== is) problems.push(`${file}: ${what} written ${said ?? '—'}, the build has ${is ?? 'no .gz'}`);
      } else if (Math.abs(said - is) > tolerance(is)) {
        problems.push(`${file}: ${what} written ${said} B, the build's is ${is} B (±${tolerance(is)} B allowed)`);
      }
    }
  }
  return problems;
}

/** Each module the build makes that the file does not list, and each it lists that the build
 * does not make; and each page file, glue or stylesheet at the build's top left out. */
export function listProblems(text, dist) {
  const files = new Set(written(text).map(([file]) => file));
  const listed = [...files].filter((f) => f.endsWith('_bg.wasm')).map((f) => f.slice(0, -'_bg.wasm'.length));
  const made = modulesOf(dist);
  const problems = [
    ...made.filter((m) => !listed.includes(m)).map((m) => `${m}: the build makes this module; docs/figures.md does not list it`),
    ...listed.filter((m) => !made.includes(m)).map((m) => `${m}: listed in docs/figures.md; the build makes no such module`),
  ];
  for (const f of fs.readdirSync(dist).filter((f) => /\.(js|css|html)$/.test(f))) {
    if (!files.has(f)) problems.push(`${f}: shipped at the build's top; docs/figures.md does not list it`);
  }
  return problems;
}

test('docs/figures.md says who writes it, on its first line', () => {
  const first = fs.readFileSync(FIGURES, 'utf8').split('\n')[0];
  assert.match(first, /Written by scripts: `node scripts\/figures\.mjs`/);
  assert.match(first, /Do not edit by hand/);
});

test('every size in docs/figures.md is the build\'s, within max(0.5%, 512 B)', () => {
  const text = fs.readFileSync(FIGURES, 'utf8');
  assert.ok(written(text).length > 30, 'the sizes section lists the modules and the files beside them');
  const problems = sizeProblems(text, built());
  assert.deepEqual(problems, [], `${problems.join('\n')}\nrun: node scripts/figures.mjs`);
});

test('docs/figures.md lists the modules the build makes, and every file at its top', () => {
  const problems = listProblems(fs.readFileSync(FIGURES, 'utf8'), built());
  assert.deepEqual(problems, [], `${problems.join('\n')}\nrun: node scripts/figures.mjs`);
});

test('a figure edited by hand, a module left out and one the build lacks are each caught', () => {
  const dist = built();
  const text = fs.readFileSync(FIGURES, 'utf8');
  const row = text.split('\n').find((l) => l.startsWith('| `rate-limit-lab-matrix_bg.wasm` |'));
  assert.ok(row, 'the matrix module has its row');
  const shipped = sizeOf(dist, 'rate-limit-lab-matrix_bg.wasm').shipped;
  const off = shipped + tolerance(shipped) + 1;
  const thousands = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const edited = row.replace(/\| [\d,]+ B \| ([^|]+) \|$/, `| ${thousands(off)} B | $1 |`);
  assert.notEqual(edited, row);
  assert.deepEqual(sizeProblems(text.replace(row, edited), dist), [
    `rate-limit-lab-matrix_bg.wasm: shipped written ${off} B, the build's is ${shipped} B (±${tolerance(shipped)} B allowed)`,
  ]);
  // Within the tolerance, the same row passes.
  const near = row.replace(/\| [\d,]+ B \| ([^|]+) \|$/, `| ${thousands(shipped + 100)} B | $1 |`);
  assert.deepEqual(sizeProblems(text.replace(row, near), dist), []);
  const renamed = row.replaceAll('rate-limit-lab-matrix', 'rate-limit-lab-gone');
  assert.deepEqual(listProblems(text.replace(row, renamed), dist), [
    'rate-limit-lab-matrix: the build makes this module; docs/figures.md does not list it',
    'rate-limit-lab-gone: listed in docs/figures.md; the build makes no such module',
  ]);
});
