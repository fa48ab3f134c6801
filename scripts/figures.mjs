// The lab's current figures, in one file written by scripts: docs/figures.md. This script
// writes its sizes, read from a release build's dist/; scripts/ready.mjs --write and
// scripts/bench-sandbox.mjs --write replace its time-to-ready and sandbox sections with
// their latest runs. Each part sits between marker comments, `<!-- figures: NAME -->` and
// `<!-- /figures -->`, and a script rewrites only its own.
//
//   node scripts/figures.mjs [--dist dist]   after `trunk build --release`
//
// tests/docs/figures.test.mjs holds the sizes written here to the build in dist/ and the
// modules listed here to the modules the build makes. The method, the budgets and the
// reasons are in docs/sizes-and-speeds.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIGURES = path.join(ROOT, 'docs', 'figures.md');

/** The module each page's file starts, and each module's budget as shipped (bytes). The
 * run page's three ways in carry the stage and its playback; the client view, a run's
 * panels and a replaying core; the workers have none, as no
 * page waits for them to load. docs/sizes-and-speeds.md, "Budgets", says why. */
const RUN_BUDGET = 200_000;
const PAGE_BUDGET = 130_000;
/** The client view carries a run's panels, its timeline, the story panel, the report card
 * and the core that replays the sandbox's calls: between the two. */
const CLIENT_BUDGET = 150_000;
/** The run page's first module: what `run.html` needs to be ready within 1.2 s on the
 * throttled phone (the stage alone measured 120,029 B and 1.18 s; docs/sizes-and-speeds.md,
 * "The run page's first module"). */
const STAGE_BUDGET = 120_000;

/** What each module is, for a reader of the table. A module missing here is still listed
 * (the test compares the list with the build), with its description left to write. */
const ROLES = {
  'rate-limit-lab': 'run: the stage, its playback and panels',
  'rate-limit-lab-first': 'the bare address: the run page and the opening story',
  'rate-limit-lab-opening': 'the bare address\'s first module: the opening\'s Play, ← and →',
  'rate-limit-lab-stage': 'the run page\'s first module: the page down to its stage',
  'rate-limit-lab-tour': 'the guided walk: the run page and the walk',
  'rate-limit-lab-compare': 'compare: every strategy on one seed',
  'rate-limit-lab-sweep': 'sweep: seeds and one parameter swept',
  'rate-limit-lab-matrix': 'matrix: strategies against provider settings',
  'rate-limit-lab-limits': 'limits: the limiters and the experiments',
  'rate-limit-lab-fleet': 'the limits page\'s fleet: its engine and its figures, a part downloaded on demand',
  'rate-limit-lab-headers': 'headers: the headers sent, and the reader',
  'rate-limit-lab-client': 'client: your own client, judged on the run page\'s panels',
  'rate-limit-lab-embed': 'embed: the widget a blog places',
  'rate-limit-lab-sim': 'worker: the core, for sweeps, matrices and large runs',
  'rate-limit-lab-sandbox': 'worker: the provider a reader\'s client meets in the sandbox',
};
const WORKERS = new Set(['rate-limit-lab-sim', 'rate-limit-lab-sandbox']);
/** Who loads the modules that no page file starts. */
const OPENED_BY = {
  'rate-limit-lab-sim': '`sim-worker.js`, when a page hands work to its workers',
  'rate-limit-lab-sandbox': 'the client view\'s sandbox frame (`sandbox/`)',
  'rate-limit-lab-fleet': '`limits.html`, the first time a reader picks the fleet',
};
/** Who loads the modules that a page file starts before its own. */
const FIRST_OF = {
  'rate-limit-lab-opening': '`index.html`, before `rate-limit-lab-first`',
  'rate-limit-lab-stage': '`run.html`, before `rate-limit-lab`',
};
const RUN_PAGES = new Set(['rate-limit-lab', 'rate-limit-lab-first', 'rate-limit-lab-tour']);

/** The first line of the file, and the text before its sections. */
const HEADER = `<!-- Written by scripts: \`node scripts/figures.mjs\`, \`node scripts/ready.mjs --write\`, \`node scripts/bench-sandbox.mjs --write\` and \`node scripts/bench-store.mjs --write\`. Do not edit by hand. -->
# Figures

The lab's figures as they stand, each section written by the command it names; do not edit
this file by hand, run the command again. How each is measured, the budgets and the reasons
behind them are in [sizes-and-speeds.md](sizes-and-speeds.md); how they got here is in
\`git log -- docs/figures.md docs/sizes-and-speeds.md\`.
`;

const thousands = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const bytes = (n) => (n === null ? '—' : `${thousands(n)} B`);

/** The size of `dir/name` and of its `.gz` beside it (null if the build made none). */
export function sizeOf(dir, name) {
  const file = path.join(dir, name);
  const gz = `${file}.gz`;
  return { raw: fs.statSync(file).size, shipped: fs.existsSync(gz) ? fs.statSync(gz).size : null };
}

/** The build's modules, by name (`rate-limit-lab-client` for `rate-limit-lab-client_bg.wasm`). */
export function modulesOf(dir) {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('_bg.wasm'))
    .map((f) => f.slice(0, -'_bg.wasm'.length))
    .sort();
}

/** Which page file starts each module: each file's `data-rate-limit-lab-hint`. */
function pageFiles(dir) {
  const files = {};
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.html')).sort()) {
    const m = fs.readFileSync(path.join(dir, f), 'utf8').match(/data-rate-limit-lab-hint="([^"]+)"/);
    if (m) files[m[1]] = f;
  }
  return files;
}

function table(head, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

function budgetCell(module, shipped) {
  if (WORKERS.has(module)) return '—';
  const budget = RUN_PAGES.has(module)
    ? RUN_BUDGET
    : module === 'rate-limit-lab-client'
      ? CLIENT_BUDGET
      : module === 'rate-limit-lab-stage'
        ? STAGE_BUDGET
        : PAGE_BUDGET;
  const left = budget - shipped;
  return left >= 0 ? `${thousands(budget)} B: ${thousands(left)} B left` : `${thousands(budget)} B: **${thousands(-left)} B over**`;
}

/** The sizes section: every module, then each page's glue and stylesheet, then the rest. */
export function sizesSection(dir) {
  const modules = modulesOf(dir);
  const opens = pageFiles(dir);
  const moduleRows = modules.map((m) => {
    const s = sizeOf(dir, `${m}_bg.wasm`);
    const opened = FIRST_OF[m] ?? (opens[m] ? `\`${opens[m]}\`` : (OPENED_BY[m] ?? '—'));
    return [`\`${m}_bg.wasm\``, ROLES[m] ?? '(not yet described in scripts/figures.mjs)', opened, bytes(s.raw), bytes(s.shipped), budgetCell(m, s.shipped)];
  });
  const beside = [];
  for (const m of modules) {
    for (const ext of ['.js', '.css']) {
      const name = `${m}${ext}`;
      if (!fs.existsSync(path.join(dir, name))) continue;
      const s = sizeOf(dir, name);
      beside.push([`\`${name}\``, ext === '.js' ? 'its JS glue' : 'its page\'s stylesheet', bytes(s.raw), bytes(s.shipped)]);
    }
  }
  const others = [
    ['loader.js', 'every page: opens the module a link names'],
    ['main.css', 'the whole stylesheet, for a widget in a blog'],
    ['sim-worker.js', 'the simulation worker\'s script'],
    ['index.html', 'the bare address, with its static shell'],
    ...Object.entries(opens)
      .map(([, f]) => f)
      .filter((f) => f !== 'index.html')
      .sort()
      .map((f) => [f, 'a page\'s own file']),
    ['editor/editor.js', 'the client view\'s code editor, imported when the view opens'],
    ['sandbox/index.html', 'the sandbox frame\'s page (served as it is)'],
    ['sandbox/frame.js', 'the sandbox frame\'s script'],
    ['sandbox/harness.js', 'the sandbox worker\'s fake clock and fetch'],
  ]
    .filter(([f]) => fs.existsSync(path.join(dir, f)))
    .map(([f, what]) => {
      const s = sizeOf(dir, f);
      return [`\`${f}\``, what, bytes(s.raw), bytes(s.shipped)];
    });
  return [
    '## Sizes',
    '',
    `Every file of \`dist/\` after \`trunk build --release\`; "shipped" is its zopfli \`.gz\` beside it,`,
    `which a static host sends (\`scripts/precompress.mjs\`). ${modules.length} modules, ${modules.length - WORKERS.size} of them pages'`,
    `and ${WORKERS.size} workers'.`,
    '',
    table(['module', 'what it is', 'opened by', '`.wasm` raw', 'shipped', 'budget, as shipped'], moduleRows),
    '',
    'Beside each module:',
    '',
    table(['file', 'what it is', 'raw', 'shipped'], beside),
    '',
    'The rest of what ships:',
    '',
    table(['file', 'what it is', 'raw', 'shipped'], others),
  ].join('\n');
}

/** The text between `<!-- figures: name -->` and `<!-- /figures -->` replaced by `body`
 * (the section added at the end if the file has none). */
export function withSection(text, name, body) {
  const open = `<!-- figures: ${name} -->`;
  const block = `${open}\n${body.trim()}\n<!-- /figures -->`;
  const start = text.indexOf(open);
  if (start < 0) return `${text.trimEnd()}\n\n${block}\n`;
  const end = text.indexOf('<!-- /figures -->', start);
  if (end < 0) throw new Error(`${path.relative(ROOT, FIGURES)}: section ${name} has no end marker`);
  return text.slice(0, start) + block + text.slice(end + '<!-- /figures -->'.length);
}

/** The text of one section, or null. */
export function section(text, name) {
  const open = `<!-- figures: ${name} -->`;
  const start = text.indexOf(open);
  if (start < 0) return null;
  const end = text.indexOf('<!-- /figures -->', start);
  return text.slice(start + open.length, end).trim();
}

/** Rewrites one section of docs/figures.md (made with its header if missing). */
export function writeSection(name, body, file = FIGURES) {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : HEADER;
  fs.writeFileSync(file, withSection(text, name, body));
}

/** Markdown rows of a section's tables, as arrays of cells (header and rule rows left out). */
export function rows(text) {
  return text
    .split('\n')
    .filter((l) => l.startsWith('| ') && !/^\|( ?-+ ?\|)+$/.test(l.replaceAll(' ', '')))
    .map((l) => l.slice(1, -1).split(' | ').map((c) => c.trim()));
}

/** A size cell back to bytes: "195,986 B" → 195986; "—" → null. */
export const parseBytes = (cell) => (cell === '—' ? null : Number(cell.replace(/ B$/, '').replaceAll(',', '')));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--dist');
  const dist = path.resolve(i > 0 ? process.argv[i + 1] : path.join(ROOT, 'dist'));
  if (!fs.existsSync(path.join(dist, 'loader.js.gz'))) {
    console.error(`${dist} holds no release build (no loader.js.gz): run trunk build --release first`);
    process.exit(2);
  }
  writeSection('sizes', sizesSection(dist));
  console.log(`wrote the sizes of ${dist} to ${path.relative(ROOT, FIGURES)}`);
}
