// Writes every figure of the outage under steady traffic into README.md and
// docs/traffic.md, each table measured by `ratelab charges --outage … --seeds 1..=100
// --json` (the case the form's links open). The tables sit between marker comments,
// `<!-- figures: NAME -->` and `<!-- /figures -->`; nothing else in the files is touched.
//
//   node scripts/outage-figures.mjs           rewrite the tables
//   node scripts/outage-figures.mjs --check   exit 1, naming each table that differs
//
// RATELAB_BIN names the binary (default target/release/ratelab); DOCS_ROOT the folder
// holding README.md and docs/ (default the repository). tests/docs runs the check, so a
// figure in the docs cannot drift from what the CLI measures.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RATELAB = process.env.RATELAB_BIN ?? path.join(ROOT, 'target', 'release', 'ratelab');
export const SEEDS = '1..=100';
const SEED_COUNT = 100;

/** One sweep of the outage over the seeds, with `flags` on top: the CLI's reports. */
function measure(flags) {
  const out = execFileSync(RATELAB, ['charges', '--outage', '--seeds', SEEDS, '--json', ...flags], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const reports = JSON.parse(out);
  return Array.isArray(reports) ? reports : [reports];
}

const thousands = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const med = (r, field) => r.fields[field].median;
const range = (lo, hi, show) => (lo === hi ? show(lo) : `${show(lo)}–${show(hi)}`);

/** Seconds from milliseconds, without the unit: 0.15, 5.5, 105. */
function secondsNumber(ms) {
  if (ms < 1000) return (ms / 1000).toFixed(2);
  if (ms < 100_000) return (ms / 1000).toFixed(1);
  return thousands(Math.round(ms / 1000));
}

/** Seconds from milliseconds: 0.15 s, 5.5 s, 105 s. */
const seconds = (ms) => `${secondsNumber(ms)} s`;

/** Whole seconds, as goodput's recovery is (it starts at a whole second). */
const wholeSeconds = (ms) => `${Math.round(ms / 1000)}`;

/** Where goodput came back and stayed, over the seeds: "0–2 s", "never", "on 84: 36 s". */
function back(r) {
  const c = r.goodputCameBack;
  if (c.seeds === 0) {
    const lb = r.fields.goodputRecoveryMs;
    return `never (${range(lb.min, lb.max, wholeSeconds)} s, the run's end)`;
  }
  const d = c.recoveryMs;
  const span = `${range(d.min, d.max, wholeSeconds)} s`;
  return c.seeds === SEED_COUNT ? span : `on ${c.seeds} of ${SEED_COUNT} seeds: ${span}`;
}

const perCustomer = (r) => (med(r, 'requestsPer100Customers') / 100).toFixed(2);
const up = (r) => `${med(r, 'goodputUpPercent')}%`;

/** The ten strategies over the seeds, one row each (docs/traffic.md). */
function strategiesTable(all) {
  const rows = all.map((r) => [
    r.strategy,
    back(r),
    up(r),
    perCustomer(r),
    thousands(med(r, 'duplicates')),
    thousands(med(r, 'gaveUp')),
    thousands(med(r, 'gaveUpCharged')),
    seconds(med(r, 'waitP99Ms')),
  ]);
  return table(
    ['strategy', 'goodput back, and stayed', 'time up after', 'requests per customer', 'extra charges', 'gave up', 'gave up, charged anyway', 'p99 wait'],
    rows,
  );
}

/** The README's shorter table: the strategies grouped as its prose tells them. */
const README_GROUPS = [
  ['retry'],
  ['timeout-no-key', 'keyed'],
  ['pool', 'headers', 'budget', 'breaker'],
  ['adaptive'],
];

function readmeTable(all) {
  const by = Object.fromEntries(all.map((r) => [r.strategy, r]));
  const joined = (group, show) => {
    const values = group.map((s) => show(by[s]));
    return [...new Set(values)].join(' / ');
  };
  const span = (group, field, show) => {
    const values = group.map((s) => med(by[s], field));
    return range(Math.min(...values), Math.max(...values), show);
  };
  // Where goodput came back over a whole group: one range when every seed of each came
  // back (or none did), else each strategy's own.
  const groupBack = (group) => {
    const rs = group.map((s) => by[s]);
    const seeds = rs.map((r) => r.goodputCameBack.seeds);
    if (seeds.every((n) => n === SEED_COUNT)) {
      const lo = Math.min(...rs.map((r) => r.goodputCameBack.recoveryMs.min));
      const hi = Math.max(...rs.map((r) => r.goodputCameBack.recoveryMs.max));
      return `${range(lo, hi, wholeSeconds)} s`;
    }
    if (seeds.every((n) => n === 0)) {
      const lo = Math.min(...rs.map((r) => r.fields.goodputRecoveryMs.min));
      const hi = Math.max(...rs.map((r) => r.fields.goodputRecoveryMs.max));
      return `never (${range(lo, hi, wholeSeconds)} s, the run's end)`;
    }
    return joined(group, back);
  };
  const rows = README_GROUPS.map((group) => [
    group.map((s) => `\`${s}\``).join(', '),
    groupBack(group),
    span(group, 'requestsPer100Customers', (v) => (v / 100).toFixed(2)),
    joined(group, (r) => thousands(med(r, 'duplicates'))),
    `${span(group, 'waitP99Ms', secondsNumber)} s`,
  ]);
  return table(['', 'goodput back, and stayed', 'requests per customer', 'extra charges', 'p99 wait'], rows);
}

/** Where keys are looked up and what a 409 costs, for `keyed` (docs/traffic.md). */
const KEY_ROWS = [
  ['at the door, at once', ['--keyCheck', 'door']],
  ...[0, 2, 4, 6, 8, 10, 12].map((ms) => [`by the worker, ${ms} ms`, ['--keyWorkMs', String(ms)]]),
  ['by the worker, 15 ms (the default: a charge\'s latency)', []],
];

function keysTable() {
  const rows = KEY_ROWS.map(([label, flags]) => {
    const [r] = measure(['--strategy', 'keyed', ...flags]);
    return [label, back(r), up(r), perCustomer(r), thousands(med(r, 'gaveUpCharged'))];
  });
  return table(['a 409 or a replay is answered', 'goodput back, and stayed', 'time up after', 'requests per customer', 'gave up, charged anyway'], rows);
}

/** How a down provider answers and what its Retry-After says, for five clients. */
const ANSWER_STRATEGIES = ['keyed', 'pool', 'headers', 'budget', 'adaptive'];

function answersTable() {
  const rows = [];
  for (const answer of ['queued', 'fast']) {
    for (const hint of ['exact', 'fixed', 'growing']) {
      const reports = measure(['--all', '--downAnswer', answer, '--downRetryAfter', hint]);
      const by = Object.fromEntries(reports.map((r) => [r.strategy, r]));
      const cell = (s) => {
        const r = by[s];
        const n = r.goodputCameBack.seeds;
        return n === 0 ? `never (up ${up(r)})` : `${n === SEED_COUNT ? '' : `${n}/${SEED_COUNT}: `}${range(r.goodputCameBack.recoveryMs.min, r.goodputCameBack.recoveryMs.max, wholeSeconds)} s`;
      };
      const label = `${answer}${answer === 'queued' && hint === 'exact' ? ' (the default)' : ''}`;
      rows.push([label, hint, ...ANSWER_STRATEGIES.map(cell)]);
    }
  }
  return table(['down provider', 'Retry-After', ...ANSWER_STRATEGIES.map((s) => `\`${s}\``)], rows);
}

function table(head, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Every table, by its marker's name. */
export function tables() {
  const all = measure(['--all']);
  return {
    'outage-strategies': strategiesTable(all),
    'outage-readme': readmeTable(all),
    'outage-keys': keysTable(),
    'outage-answers': answersTable(),
  };
}

/** Where each table goes. */
export const FILES = {
  'README.md': ['outage-readme'],
  'docs/traffic.md': ['outage-strategies', 'outage-keys', 'outage-answers'],
};

/** `text` with the table `name` between its markers replaced by `body`. */
export function splice(text, name, body, file) {
  const open = `<!-- figures: ${name} -->`;
  const close = '<!-- /figures -->';
  const start = text.indexOf(open);
  const end = start < 0 ? -1 : text.indexOf(close, start);
  if (start < 0 || end < 0) throw new Error(`${file} has no ${open} … ${close}`);
  return `${text.slice(0, start + open.length)}\n${body}\n${text.slice(end)}`;
}

function main() {
  const check = process.argv.includes('--check');
  const made = tables();
  const stale = [];
  for (const [file, names] of Object.entries(FILES)) {
    const full = path.join(process.env.DOCS_ROOT ?? ROOT, file);
    const before = fs.readFileSync(full, 'utf8');
    let after = before;
    for (const name of names) {
      const next = splice(after, name, made[name], file);
      if (next !== after) stale.push(`${file}: ${name}`);
      after = next;
    }
    if (!check && after !== before) fs.writeFileSync(full, after);
  }
  if (check && stale.length > 0) {
    console.error(`These tables differ from what the CLI measures (run node scripts/outage-figures.mjs):\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
  console.log(check ? 'every outage table matches the CLI' : `wrote ${stale.length} table(s)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
