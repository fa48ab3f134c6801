// What the docs and the comments cite must exist: every repository path they name, every
// section they name by its heading, every link between the docs with its anchor, and every
// count of the workspace's crates or of the build's modules they state. A file moved, a
// section renamed or a crate added fails here with the file and line that cite it.
//
// Read: README.md, docs/, vendor/README.md, index.html and the manifests whole; in
// crates/, scripts/, assets/, tests/ and style/, the comments only (code is checked by
// what runs it). A cited path resolves by these rules, in order:
//
// - In a Markdown file, `./x` is a command run at the root and `../x` is from the file's
//   folder. Elsewhere such a path is a URL or an include, which the loader or the
//   compiler resolves; it is not checked.
// - `dist/x`, and the build's own folders (`editor/`, `sandbox/`, `source/`): a file the
//   build makes, from what BUILT says it comes from.
// - A top-level folder of the repository (`crates/`, `docs/`, `scripts/`, …): from the
//   root. In a crate's own files, `src/x` and `tests/x` are that crate's first.
// - A crate's name (`sim/provider.rs`, `sim/tests/traffic.rs`): that crate's folder, or
//   its `src/`.
// - A folder inside a crate's `src/` (`limiter/drain.rs`, `shared/bind.rs`): that crate's
//   `src/` first when the file is in a crate, else any crate's.
// - `src/x` outside a crate: any crate's `src/`, unless EXTERNAL lists it as another
//   project's file.
// Any other path (another project's, a URL's) is not the repository's and is not checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** This file: its comments cite made-up paths to say the rules. */
const SELF = fileURLToPath(import.meta.url);
const SKIP = new Set(['node_modules', 'target', 'dist', '.git', '.tools']);

/** Other projects' files that the docs cite by their own paths (docs/articles.md,
 * docs/headers.md, the adaptive strategy's source). */
const EXTERNAL = new Set([
  'src/sinks/util/adaptive_concurrency/controller.rs',
  'src/urllib3/util/retry.py',
  'src/index.ts',
  'src/openai/_base_client.py',
]);

/** Where each folder the build makes comes from. Files at the build's top are its modules'
 * glue and `.wasm` (from `index.html`'s rust links), the files `index.html` copies, the
 * page files, the stylesheets, and each one's `.gz`: see `builtAtTop`. */
const BUILT = {
  'editor/editor.js': 'assets/editor/editor.js', // bundled by scripts/editor.mjs
  'editor/editor.js.gz': 'assets/editor/editor.js',
  'sandbox/': 'assets/sandbox/', // copied by index.html
  'source/strategy/': 'crates/sim/src/strategy/', // copied by index.html
  'source/equivalents.txt': 'crates/page/src/run/equivalents.txt', // copied by index.html
  'clients/': 'clients/', // copied by index.html
};

const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
  'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
const NUMBER = `(\\d+|${NUMBERS.join('|')})`;
const numberOf = (word) => (/^\d+$/.test(word) ? Number(word) : NUMBERS.indexOf(word.toLowerCase()));

function walk(dir, keep, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, keep, out);
    else if (keep(e.name)) out.push(p);
  }
  return out;
}

/** The files read, each with how: 'whole' or 'comments'. */
export function filesOf(root) {
  const whole = [
    ...['README.md', 'index.html', 'Cargo.toml', 'Trunk.toml', 'vendor/README.md'].map((f) => path.join(root, f)),
    ...walk(path.join(root, 'docs'), (n) => n.endsWith('.md')),
    ...walk(path.join(root, 'crates'), (n) => n === 'Cargo.toml'),
  ].filter((f) => fs.existsSync(f));
  const comments = [
    ...walk(path.join(root, 'crates'), (n) => n.endsWith('.rs')),
    ...walk(path.join(root, 'scripts'), (n) => /\.(mjs|sh)$/.test(n)),
    ...walk(path.join(root, 'assets'), (n) => n.endsWith('.js')),
    ...walk(path.join(root, 'tests'), (n) => n.endsWith('.mjs')),
    ...walk(path.join(root, 'style'), (n) => n.endsWith('.css')),
  ];
  return [...whole.map((f) => [f, 'whole']), ...comments.filter((f) => f !== SELF).map((f) => [f, 'comments'])];
}

/** The text of a file's comments, every other character a space (newlines kept, so an
 * offset still gives the line), comment markers included. */
export function commentsOf(text, file) {
  const keep = new Array(text.length).fill(false);
  const mark = (from, to) => {
    for (let i = from; i < to; i += 1) keep[i] = true;
  };
  if (file.endsWith('.sh')) {
    for (const m of text.matchAll(/(^|\s)#(?!!)(.*)$/gm)) mark(m.index + m[1].length + 1, m.index + m[0].length);
  } else {
    if (!file.endsWith('.css')) {
      // A line comment: `//` not in a URL (`https://`), a string's quotes or a regex.
      for (const m of text.matchAll(/(?<![:'"`\\/])\/\/[/!]?(.*)$/gm)) mark(m.index + m[0].length - m[1].length, m.index + m[0].length);
    }
    for (const m of text.matchAll(/\/\*([\s\S]*?)\*\//g)) mark(m.index + 2, m.index + m[0].length - 2);
  }
  let out = '';
  for (let i = 0; i < text.length; i += 1) out += keep[i] || text[i] === '\n' ? text[i] : ' ';
  // A block comment's leading stars are not words.
  return out.replace(/^(\s*)\*(?!\/)/gm, '$1 ');
}

/** The workspace's facts: its crates, its test-only helpers, and the modules the build makes. */
export function factsOf(root) {
  const manifest = fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8');
  const members = [...manifest.match(/^members\s*=\s*\[([^\]]*)\]/m)[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const helpers = members.filter((m) =>
    /^\[package\.metadata\.rate-limit-lab\][^[]*^test-only\s*=\s*true/m.test(fs.readFileSync(path.join(root, m, 'Cargo.toml'), 'utf8')),
  );
  const index = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
  const rust = [...index.matchAll(/<link data-trunk rel="rust" href="([^"]+)" data-bin="([^"]+)"/g)];
  return {
    crates: members.length - helpers.length,
    helpers: helpers.length,
    crateNames: members.map((m) => path.basename(m)),
    modules: rust.length,
    pageModules: rust.filter(([, href]) => href === 'crates/web/Cargo.toml').length,
    bins: rust.map(([, , bin]) => bin),
    copied: [...index.matchAll(/rel="copy-file" href="([^"]+)"/g)].map((m) => path.basename(m[1])),
  };
}

/** True if `name`, a file at the build's top, is one the build makes. */
function builtAtTop(root, name, facts) {
  const base = name.replace(/\.gz$/, '');
  if (facts.bins.some((b) => base === `${b}.js` || base === `${b}_bg.wasm` || base === `${b}.css`)) return true;
  if (facts.copied.includes(base) || base === 'main.css') return true;
  // The page files: index.html and one per page, named in the page table.
  const pages = fs.readFileSync(path.join(root, 'crates/page/src/query/page.rs'), 'utf8');
  return base === 'index.html' || (base.endsWith('.html') && pages.includes(`"${base}"`));
}

const exists = (p) => fs.existsSync(p);

/** Where `cited`, found in `file`, is in the repository: true if it exists, false if it
 * should and does not, null if it is not a repository path. */
export function resolve(root, file, cited, facts) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  // A glob (`crates/**/*.rs`) is checked up to the folder before its first wildcard.
  const clean = cited.replace(/\/$/, '');
  const target = clean.includes('*') ? clean.slice(0, clean.indexOf('*')).replace(/\/[^/]*$/, '') : clean;
  const [first, ...rest] = target.split('/');
  const crateOf = rel.match(/^crates\/([^/]+)\//)?.[1];
  if (first === '.' || first === '..') {
    if (!rel.endsWith('.md')) return null;
    // `./x` in a doc is a command run at the root; `../x` is from the doc's own folder.
    return exists(first === '.' ? path.join(root, target) : path.resolve(path.dirname(file), target));
  }
  if (first === 'dist') {
    const inner = rest.join('/');
    if (!inner) return true;
    if (!inner.includes('/')) return builtAtTop(root, inner, facts);
    return resolve(root, path.join(root, 'README.md'), inner, facts);
  }
  for (const [out, from] of Object.entries(BUILT)) {
    if (out.endsWith('/') ? `${target}/`.startsWith(out) : target === out) {
      if (out === 'clients/') break; // the repository's own folder as well
      return exists(path.join(root, from + (out.endsWith('/') ? target.slice(out.length) : '')));
    }
  }
  if (crateOf && (first === 'src' || first === 'tests') && exists(path.join(root, 'crates', crateOf, target))) return true;
  const tops = fs.readdirSync(root).filter((n) => !SKIP.has(n) && !n.startsWith('.'));
  if (tops.includes(first) && first !== 'src') return exists(path.join(root, target));
  if (facts.crateNames.includes(first) && rest.length > 0) {
    const inner = rest.join('/');
    return exists(path.join(root, 'crates', first, inner)) || exists(path.join(root, 'crates', first, 'src', inner));
  }
  const srcs = facts.crateNames.map((c) => path.join(root, 'crates', c, 'src'));
  if (first === 'src') {
    if (EXTERNAL.has(target)) return null;
    return srcs.some((s) => exists(path.join(s, rest.join('/'))));
  }
  const own = crateOf ? [path.join(root, 'crates', crateOf, 'src')] : [];
  const holders = [...own, ...srcs].filter((s) => exists(path.join(s, first)) && fs.statSync(path.join(s, first)).isDirectory());
  if (holders.length > 0 && rest.length > 0) return exists(path.join(holders[0], target)) || holders.some((s) => exists(path.join(s, target)));
  return null;
}

/** GitHub's anchor for a heading. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function headingsOf(file) {
  const text = fs.readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const titles = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1].replace(/`/g, '').trim());
  const seen = new Map();
  const anchors = titles.map((t) => {
    const s = slug(t);
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    return n === 0 ? s : `${s}-${n}`;
  });
  return { titles, anchors };
}

/** Every problem in the files under `root`, as "file:line: what". */
export function problemsIn(root) {
  const facts = factsOf(root);
  const problems = [];
  for (const [file, how] of filesOf(root)) {
    const raw = fs.readFileSync(file, 'utf8');
    const text = how === 'whole' ? raw : commentsOf(raw, file);
    const rel = path.relative(root, file).split(path.sep).join('/');
    const at = (i) => `${rel}:${text.slice(0, i).split('\n').length}`;
    // Repository paths.
    for (const m of text.matchAll(/(?<![\w.\/@:$-])(?:\.{1,2}\/)*[A-Za-z0-9_*][\w.*-]*(?:\/[\w.*-]+)+\/?/g)) {
      const cited = m[0].replace(/[.,;:]+$/, '');
      if (resolve(root, file, cited, facts) === false) problems.push(`${at(m.index)}: cites ${cited}, which does not exist`);
    }
    // Sections cited by their heading: docs/x.md, "Heading".
    for (const m of text.matchAll(/([\w./-]+\.md|README),\s+"([^"]+)"/g)) {
      const doc = m[1] === 'README' ? path.join(root, 'README.md') : path.resolve(root, m[1].replace(/^\.\//, ''));
      const local = path.resolve(path.dirname(file), m[1]);
      const target = exists(doc) ? doc : local;
      if (!exists(target)) continue; // the path rule above reports it
      const wanted = m[2].replace(/\s+/g, ' ').replace(/`/g, '').toLowerCase();
      if (!headingsOf(target).titles.some((t) => t.toLowerCase().startsWith(wanted))) {
        problems.push(`${at(m.index)}: cites the section "${m[2].replace(/\s+/g, ' ')}" of ${m[1]}, which has no such heading`);
      }
    }
    // Links between the docs, with their anchors.
    if (rel.endsWith('.md')) {
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1];
        if (/^[a-z]+:/.test(link)) continue;
        const [where, anchor] = link.split('#');
        const target = where ? path.resolve(path.dirname(file), where.split('?')[0]) : file;
        if (!exists(target)) {
          problems.push(`${at(m.index)}: links ${link}, which does not exist`);
        } else if (anchor && target.endsWith('.md') && !headingsOf(target).anchors.includes(anchor)) {
          problems.push(`${at(m.index)}: links ${link}, which has no such heading`);
        }
      }
    }
    // Counts of crates and modules.
    for (const m of text.matchAll(new RegExp(`\\b${NUMBER}\\s+(?:workspace\\s+)?crates\\b(?![/.])`, 'gi'))) {
      if (numberOf(m[1]) !== facts.crates) {
        problems.push(`${at(m.index)}: says "${m[0]}"; the workspace has ${facts.crates} (and ${facts.helpers} test-only)`);
      }
    }
    for (const m of text.matchAll(new RegExp(`\\b${NUMBER}\\s+(WebAssembly|page|\`?\\.wasm\`?)\\s+modules\\b`, 'gi'))) {
      const truth = m[2] === 'page' ? facts.pageModules : facts.modules;
      if (numberOf(m[1]) !== truth) problems.push(`${at(m.index)}: says "${m[0]}"; the build makes ${truth}`);
    }
  }
  return problems;
}

test('every path, section, link and count the docs and comments cite is true', () => {
  const problems = problemsIn(ROOT);
  assert.deepEqual(problems, [], problems.join('\n'));
});

test('the facts the counts are held to are the workspace\'s', () => {
  const facts = factsOf(ROOT);
  assert.ok(facts.crates >= 5, `${facts.crates} crates`);
  assert.equal(facts.modules, facts.bins.length);
  assert.ok(facts.pageModules > 0 && facts.pageModules < facts.modules);
});

test('a planted bad path, section, anchor and count are each caught, and their true forms pass', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cited-paths-'));
  for (const f of ['Cargo.toml', 'index.html', 'docs/architecture.md', 'docs/sizes-and-speeds.md', 'crates/page/src/query/page.rs']) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, f), path.join(root, f));
  }
  const facts = factsOf(ROOT);
  for (const member of fs.readFileSync(path.join(ROOT, 'Cargo.toml'), 'utf8').match(/^members\s*=\s*\[([^\]]*)\]/m)[1].match(/"[^"]+"/g)) {
    const m = member.slice(1, -1);
    fs.mkdirSync(path.join(root, m, 'src'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, m, 'Cargo.toml'), path.join(root, m, 'Cargo.toml'));
  }
  fs.mkdirSync(path.join(root, 'crates/sim/src/limiter'), { recursive: true });
  fs.writeFileSync(path.join(root, 'crates/sim/src/budget.rs'), '');
  fs.writeFileSync(path.join(root, 'crates/sim/src/limiter/drain.rs'), '');
  const words = NUMBERS[facts.crates];
  fs.writeFileSync(
    path.join(root, 'docs', 'x.md'),
    [
      'Good: `crates/sim/src/budget.rs`, `sim/budget.rs`, `limiter/drain.rs`, `dist/loader.js`,',
      `[the layers](architecture.md#the-layers-are-crates), ${words} crates,`,
      `and ${facts.modules} WebAssembly modules (docs/sizes-and-speeds.md, "Budgets").`,
      'Bad: `crates/sim/src/nothing.rs`, `sim/nothing.rs`, `dist/nothing.js`,',
      `[nowhere](architecture.md#no-such-part), ${NUMBERS[facts.crates + 1]} crates,`,
      `${facts.modules + 1} WebAssembly modules (docs/sizes-and-speeds.md, "No such section").`,
    ].join('\n'),
  );
  const found = problemsIn(root).filter((p) => p.startsWith('docs/x.md'));
  fs.rmSync(root, { recursive: true });
  assert.deepEqual(found, [
    'docs/x.md:4: cites crates/sim/src/nothing.rs, which does not exist',
    'docs/x.md:4: cites sim/nothing.rs, which does not exist',
    'docs/x.md:4: cites dist/nothing.js, which does not exist',
    'docs/x.md:6: cites the section "No such section" of docs/sizes-and-speeds.md, which has no such heading',
    'docs/x.md:5: links architecture.md#no-such-part, which has no such heading',
    `docs/x.md:5: says "${NUMBERS[facts.crates + 1]} crates"; the workspace has ${facts.crates} (and ${facts.helpers} test-only)`,
    `docs/x.md:6: says "${facts.modules + 1} WebAssembly modules"; the build makes ${facts.modules}`,
  ]);
});

test('comments are read, code is not', () => {
  const source = 'let p = "crates/none.rs"; // see crates/nothere.rs\nconst u = "https://x.org/a/b.rs";\n/* and\n * docs/gone.md */\n';
  const text = commentsOf(source, 'x.rs');
  assert.equal(text.split('\n').length, source.split('\n').length);
  assert.ok(text.includes('crates/nothere.rs') && text.includes('docs/gone.md'));
  assert.ok(!text.includes('crates/none.rs') && !text.includes('x.org'));
});
