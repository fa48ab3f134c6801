// The stylesheet, the pages and the two hand-written scripts, minified for a release
// build. Their sources keep the comments that explain them; on a phone's link those
// comments were bytes on the line beside the page's module (the stylesheet 11.0 → 7.5 KB
// and the loader 2.9 → 1.2 KB by gzip -9: docs/sizes-and-speeds.md, "The stylesheet, the
// loader and the thread check").
//
// 1. main.css by lightningcss (the engine trunk's own minifier uses), whole: a widget's
//    shadow root in a blog's page links it (crates/web/src/embed/host.rs);
// 2. each page file's own stylesheet: main.css without the rules whose
//    selectors need a class that the page's module, its glue, its file and the loader
//    never name (lightningcss's `unusedSymbols`, which keeps a rule a class inside
//    `:not()`, `:is()` or `:has()` might still match, and a list with one live selector).
//    A class is named if its text is in those files, or the text of a prefix of it that
//    ends in a hyphen (`rll-harm-` for `rll-harm-2`, which a module writes in two parts).
//    Each file then carries its own in a `<style>` element in place of the link: the
//    bare address's opening picture is in its file, and a stylesheet of its own was one
//    more round trip before it could show (−88 ms to that picture, median of 8 paired
//    throttled loads: docs/sizes-and-speeds.md, "The stylesheet, the loader and the thread check");
// 3. loader.js and sim-worker.js by terser (ES modules: their imports and exports keep
//    their names);
// 4. the pages' files by html-minifier-terser: comments out, runs of white space made one
//    (never removed, so no word in the shell runs into the next).
// Any step that cannot do its work fails the build. Run by trunk after each release build
// (scripts/post-build.mjs, before the files are precompressed), or by hand on a built
// dist/: node scripts/minify-assets.mjs [dir]. A debug build (`trunk serve`) is left
// readable, and every page links main.css.
import fs from 'node:fs';
import path from 'node:path';
import { minify as minifyHtml } from 'html-minifier-terser';
import { transform } from 'lightningcss';
import { minify } from 'terser';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('usage: node scripts/minify-assets.mjs <built dist directory> (trunk sets TRUNK_STAGING_DIR)');
  process.exit(2);
}
if (!process.argv[2] && process.env.TRUNK_PROFILE !== 'release') process.exit(0);

const fail = (why) => {
  console.error(`minify-assets: ${why}`);
  process.exit(1);
};
const read = (file) => {
  const at = path.join(dir, file);
  if (!fs.existsSync(at)) fail(`${at} is missing`);
  return fs.readFileSync(at);
};

// The parts of each page that are modules of their own, from assets/loader.js's table
// (its source: the copy in dir/ may be minified already).
const partsLine = fs
  .readFileSync(new URL('../assets/loader.js', import.meta.url), 'utf8')
  .match(/^const PARTS = (\{.*\});$/m);
if (!partsLine) fail('assets/loader.js: no `const PARTS = { … };` line to read the pages\' parts from');
const PARTS = JSON.parse(partsLine[1].replaceAll("'", '"'));

// 1. The stylesheet, whole.
const STYLESHEET = 'main.css';
const css = read(STYLESHEET);
const minified = (options = {}) => {
  try {
    return transform({ filename: STYLESHEET, code: css, minify: true, ...options }).code;
  } catch (error) {
    fail(`${STYLESHEET}: ${error.message} (line ${error.loc?.line ?? '?'})`);
  }
};
const small = minified();
fs.writeFileSync(path.join(dir, STYLESHEET), small);
console.log(`minify-assets: ${STYLESHEET} ${css.length} → ${small.length} B`);

// 2. Each page file's own stylesheet. Every class any selector names, nested ones too.
const classes = new Set();
const collect = (selector) => {
  for (const part of selector) {
    if (part.type === 'class') classes.add(part.name);
    if (Array.isArray(part.selectors)) part.selectors.forEach(collect);
  }
};
minified({ visitor: { Selector: collect } });
if (classes.size === 0) fail(`${STYLESHEET}: no class found in its selectors`);
const link = /<link rel="stylesheet" href="\.\/main\.css" integrity="sha384-[A-Za-z0-9+/=]+"[^>]*>/g;
const hint = /data-rate-limit-lab-hint="([a-z-]+)"/;
const pages = fs.readdirSync(dir).filter((f) => f.endsWith('.html')).sort();
let linked = 0;
for (const page of pages) {
  const html = read(page).toString('utf8');
  // A file that already carries its own (this step run again on a built dist/) keeps it.
  if (html.includes('<style data-stylesheet=')) {
    linked += 1;
    continue;
  }
  if (!html.includes('main.css')) continue;
  const links = html.match(link)?.length ?? 0;
  if (links !== 1) fail(`${page} names main.css, but not once with its integrity (${links} links found)`);
  const module = html.match(hint)?.[1];
  if (!module) fail(`${page} links main.css but names no module (data-rate-limit-lab-hint)`);
  // Byte for byte (latin1 keeps each byte one character): the module's strings are UTF-8.
  // A part of the page in a module of its own draws inside the page, with its stylesheet.
  const modules = [module, ...(PARTS[module] ?? [])];
  const text = [...modules.flatMap((m) => [`${m}_bg.wasm`, `${m}.js`]), page, 'loader.js'].map((f) => read(f).toString('latin1')).join('\n');
  const named = (name) => {
    if (text.includes(name)) return true;
    for (let end = name.indexOf('-', 4); end > 0; end = name.indexOf('-', end + 1)) {
      if (text.includes(name.slice(0, end + 1))) return true;
    }
    return false;
  };
  const unused = [...classes].filter((name) => !named(name));
  const own = minified({ unusedSymbols: unused }).toString('utf8');
  if (/<\/style/i.test(own)) fail(`${page}: its stylesheet holds "</style", which would end the element early`);
  // The name says which module's rules these are (the tests read it).
  const style = `<style data-stylesheet="${module}">${own}</style>`;
  fs.writeFileSync(path.join(dir, page), html.replace(link, () => style));
  console.log(`minify-assets: ${page} carries its stylesheet, ${Buffer.byteLength(own)} B (${unused.length} of ${classes.size} classes unnamed)`);
  linked += 1;
}
if (linked === 0) fail(`no page links ${STYLESHEET}`);

// 3. The scripts.
for (const file of ['loader.js', 'sim-worker.js']) {
  const source = read(file).toString('utf8');
  const out = await minify(source, { module: true, compress: true, mangle: true, format: { comments: false } });
  if (!out.code) fail(`${file}: terser returned nothing`);
  fs.writeFileSync(path.join(dir, file), out.code);
  console.log(`minify-assets: ${file} ${Buffer.byteLength(source)} → ${Buffer.byteLength(out.code)} B`);
}

// 4. The pages' files, last: the steps above read them as entry-pages.mjs wrote them.
for (const page of pages) {
  const html = read(page).toString('utf8');
  const out = await minifyHtml(html, { removeComments: true, collapseWhitespace: true, conservativeCollapse: true });
  if (!out.includes('data-rate-limit-lab-page')) fail(`${page}: the minified file lost the lab's root element`);
  fs.writeFileSync(path.join(dir, page), out);
  console.log(`minify-assets: ${page} ${Buffer.byteLength(html)} → ${Buffer.byteLength(out)} B`);
}
