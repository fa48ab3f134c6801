// Pages that name their module in their HTML. Every page of the lab is index.html, and
// assets/loader.js picks the module from the link; so the module's download cannot start
// before the loader has arrived, one round trip after the HTML. A page that knows its
// module can ask for it in its <head>, beside the loader: run.html, compare.html, … and
// embed.html are index.html with that one hint for their page's module (README, "Time to
// ready"). Their links still carry the whole query (`view=compare`, `embed=1`, …), so the
// loader and the page read them exactly as they read index.html's: a file opened with
// another page's query still shows that page, only without the head start.
//
// Run by trunk after each build (Trunk.toml's post_build hook) on its staging directory,
// or by hand on a built dist/: node scripts/entry-pages.mjs [dir]
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('usage: node scripts/entry-pages.mjs <built dist directory> (trunk sets TRUNK_STAGING_DIR)');
  process.exit(2);
}

// Each entry page, and the module it starts at once: the files `Page::entry_file` names
// in src/page/mod.rs (whose test holds the two lists equal).
const ENTRIES = [
  ['run.html', 'rate-limit-lab'],
  ['compare.html', 'rate-limit-lab-compare'],
  ['sweep.html', 'rate-limit-lab-sweep'],
  ['matrix.html', 'rate-limit-lab-matrix'],
  ['limits.html', 'rate-limit-lab-limits'],
  ['headers.html', 'rate-limit-lab-headers'],
  ['embed.html', 'rate-limit-lab-embed'],
];

const index = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
const loader = /<script type="module" async fetchpriority="high" src="\.\/loader\.js"><\/script>/;
if (!loader.test(index)) {
  console.error(`entry-pages: ${dir}/index.html has no loader <script> to put the hints beside`);
  process.exit(1);
}
for (const [file, module] of ENTRIES) {
  // `crossorigin` makes the hint's request the same as the loader's fetch() (CORS mode,
  // same-origin credentials), so the loader takes the response the hint started.
  const hints =
    `<link rel="preload" href="./${module}_bg.wasm" as="fetch" type="application/wasm" crossorigin fetchpriority="high" />\n` +
    `    <link rel="modulepreload" href="./${module}.js" />\n    `;
  const html = index.replace(loader, (tag) => hints + tag);
  fs.writeFileSync(path.join(dir, file), html);
}
