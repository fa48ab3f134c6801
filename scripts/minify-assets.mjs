// The stylesheet and the two hand-written scripts, minified for a release build. Their
// sources keep the comments that explain them; on a phone's link those comments were
// bytes on the line beside the page's module (the stylesheet 11.0 → 7.5 KB and the
// loader 2.9 → 1.2 KB by gzip -9: docs/sizes-and-speeds.md, "The stylesheet, the loader
// and the thread check").
//
// 1. main.css by lightningcss (the engine trunk's own minifier uses), and each page's
//    `integrity` for it computed again, since the browser refuses a stylesheet whose
//    bytes differ from the hash its link names;
// 2. loader.js and sim-worker.js by terser (ES modules: their imports and exports keep
//    their names).
// Any step that cannot do its work fails the build. Run by trunk after each release build
// (scripts/post-build.mjs, before the files are precompressed), or by hand on a built
// dist/: node scripts/minify-assets.mjs [dir]. A debug build (`trunk serve`) is left readable.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
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

// 1. The stylesheet, then every page's hash of it.
const STYLESHEET = 'main.css';
const css = read(STYLESHEET);
let small;
try {
  small = transform({ filename: STYLESHEET, code: css, minify: true }).code;
} catch (error) {
  fail(`${STYLESHEET}: ${error.message} (line ${error.loc?.line ?? '?'})`);
}
fs.writeFileSync(path.join(dir, STYLESHEET), small);
const integrity = `sha384-${crypto.createHash('sha384').update(small).digest('base64')}`;
const link = /(<link rel="stylesheet" href="\.\/main\.css" integrity=")sha384-[A-Za-z0-9+/=]+(")/g;
const pages = fs.readdirSync(dir).filter((f) => f.endsWith('.html')).sort();
let linked = 0;
for (const page of pages) {
  const html = read(page).toString('utf8');
  if (!html.includes('main.css')) continue;
  const hashes = html.match(link)?.length ?? 0;
  if (hashes !== 1) fail(`${page} names main.css, but not once with its integrity (${hashes} links found)`);
  fs.writeFileSync(path.join(dir, page), html.replace(link, `$1${integrity}$2`));
  linked += 1;
}
if (linked === 0) fail(`no page links ${STYLESHEET}`);
console.log(`minify-assets: ${STYLESHEET} ${css.length} → ${small.length} B, its integrity in ${linked} pages`);

// 2. The scripts.
for (const file of ['loader.js', 'sim-worker.js']) {
  const source = read(file).toString('utf8');
  const out = await minify(source, { module: true, compress: true, mangle: true, format: { comments: false } });
  if (!out.code) fail(`${file}: terser returned nothing`);
  fs.writeFileSync(path.join(dir, file), out.code);
  console.log(`minify-assets: ${file} ${Buffer.byteLength(source)} → ${Buffer.byteLength(out.code)} B`);
}
