// Pages that name their module in their HTML. Every page of the lab is index.html, and
// assets/loader.js picks the module from the link; so the module's download cannot start
// before the loader has arrived, one round trip after the HTML. A page that knows its
// module can ask for it in its <head>, beside the loader: run.html, compare.html, … and
// embed.html are index.html with that one hint for their page's module (docs/sizes-and-speeds.md,
// "Time to ready"), and walk.html asks for the guided walk's. index.html itself, the lab's
// bare address, asks for the module of the run page with the opening story and without the
// walk, which a visit with no query opens. Each file's root element names the module it asked for
// (`data-rate-limit-lab-hint`), so that the loader, given a link to another page (an old
// link to the bare address with `?view=compare`, say), opens that page's own file instead
// of downloading a second module beside the first.
//
// Run by trunk after each build (Trunk.toml's post_build hook) on its staging directory,
// or by hand on a built dist/: node scripts/entry-pages.mjs [dir]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('usage: node scripts/entry-pages.mjs <built dist directory> (trunk sets TRUNK_STAGING_DIR)');
  process.exit(2);
}

// Each entry page, and the module it starts at once: the files `Page::entry_file` and
// `Page::module` name (crates/page/src/query/page.rs); a browser test opens each page's
// file from that table and checks the module it loads (tests/browser/pages-table.test.mjs).
const ENTRIES = [
  // The run page asks first for its first module, the page down to its stage, which the
  // loader starts before the page's own (crates/web/src/run/hand_over.rs).
  ['run.html', 'rate-limit-lab', 'rate-limit-lab-stage'],
  ['compare.html', 'rate-limit-lab-compare'],
  ['sweep.html', 'rate-limit-lab-sweep'],
  ['matrix.html', 'rate-limit-lab-matrix'],
  ['limits.html', 'rate-limit-lab-limits'],
  ['headers.html', 'rate-limit-lab-headers'],
  ['client.html', 'rate-limit-lab-client'],
  ['embed.html', 'rate-limit-lab-embed'],
  ['walk.html', 'rate-limit-lab-tour'],
  // Last: the others are written from index.html as trunk left it. The bare address
  // asks first for the opening's player, which the loader starts before the run page's
  // module (crates/web/src/run/opening_player.rs).
  ['index.html', 'rate-limit-lab-first', 'rate-limit-lab-opening'],
];

// The bare address's opening story, drawn from the record of the run a first visit opens
// on: the source marks its place, and the page layer draws it
// (crates/page/src/bin/opening-shell.rs), so the picture in the page is always the
// record's. It is written before the other files are made from index.html, which leave it
// out.
const MARKER = '<!-- opening-shell -->';
let index = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
if (index.includes(MARKER)) {
  let section;
  try {
    section = execFileSync('cargo', ['run', '--quiet', '--release', '-p', 'page', '--bin', 'opening-shell'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  } catch (error) {
    console.error(`entry-pages: could not draw the opening story (${error.message.split('\n')[0]})`);
    process.exit(1);
  }
  if (!section.startsWith('<section') || !section.includes('id="rll-opening"')) {
    console.error('entry-pages: the opening story came out without its section');
    process.exit(1);
  }
  index = index.replace(MARKER, () => section);
  fs.writeFileSync(path.join(dir, 'index.html'), index);
}
const loader = /<script type="module" async fetchpriority="high" src="\.\/loader\.js"><\/script>/;
const root = '<html lang="en" data-rate-limit-lab-page>';
if (!loader.test(index) || !index.includes(root)) {
  // Run twice on one directory, index.html already has its hint: nothing more to do.
  if (index.includes('data-rate-limit-lab-hint=')) process.exit(0);
  console.error(`entry-pages: ${dir}/index.html has no loader <script> or lab root element to mark`);
  process.exit(1);
}
for (const [file, module, first = module] of ENTRIES) {
  // `crossorigin` makes the hint's request the same as the loader's fetch() (CORS mode,
  // same-origin credentials), so the loader takes the response the hint started.
  const hints =
    `<link rel="preload" href="./${first}_bg.wasm" as="fetch" type="application/wasm" crossorigin fetchpriority="high" />\n` +
    `    <link rel="modulepreload" href="./${first}.js" />\n    `;
  // Only the bare address's shell holds the sections and the rules (index.html): every
  // other file is opened with a query, whose numbers they might not match.
  const shell = file === 'index.html' ? index : index.replace(/\s*<!-- At the lab's bare address[\s\S]*?id="rll-shell-intro">[\s\S]*?<\/section>/, '');
  if (file !== 'index.html' && shell.includes('rll-shell-intro')) {
    console.error(`entry-pages: could not take the sections and rules out of ${file}`);
    process.exit(1);
  }
  const html = shell
    .replace(loader, (tag) => hints + tag)
    .replace(root, `<html lang="en" data-rate-limit-lab-page data-rate-limit-lab-hint="${module}">`);
  fs.writeFileSync(path.join(dir, file), html);
}
