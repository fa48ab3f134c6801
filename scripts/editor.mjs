// The code editor of the "your own client" view (issue 48): assets/editor/editor.js and the
// parts of CodeMirror 6 it imports, bundled by esbuild into one ES module,
// `<dist>/editor/editor.js`, which only that view imports (docs/sizes-and-speeds.md,
// "The editor"). Every build, debug ones too: `trunk serve` shows that view.
//
// Checks, each failing the build: the bundle names no `eval` and no `new Function` (the
// page's CSP has no 'unsafe-eval', so either would throw there), and it is one file (a
// chunk or asset beside it would be fetched from a path nothing ships).
//
// A release build's `.gz` is written here, by zopfli as scripts/precompress.mjs does: that
// step compresses the files at the top of dist/ only, not a subfolder's.
//
// Run by trunk after each build (scripts/post-build.mjs, first), or by hand on a built
// dist/: node scripts/editor.mjs [dir]; by hand it writes the `.gz` as a release build does.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { gzipAsync } from '@gfx/zopfli';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('usage: node scripts/editor.mjs <built dist directory> (trunk sets TRUNK_STAGING_DIR)');
  process.exit(2);
}
const release = Boolean(process.argv[2]) || process.env.TRUNK_PROFILE === 'release';

const fail = (why) => {
  console.error(`editor: ${why}`);
  process.exit(1);
};

const out = path.join(dir, 'editor', 'editor.js');
let result;
try {
  result = await build({
    absWorkingDir: ROOT, // trunk runs hooks from anywhere; paths in the metafile from here
    entryPoints: ['assets/editor/editor.js'],
    outfile: path.resolve(out),
    bundle: true,
    format: 'esm',
    target: 'es2020',
    minify: true,
    charset: 'utf8', // CodeMirror's few non-ASCII strings as themselves, not \u escapes
    metafile: true,
    logLevel: 'warning',
  });
} catch (error) {
  fail(`esbuild failed: ${error.message}`);
}
const written = Object.keys(result.metafile.outputs);
if (written.length !== 1) fail(`esbuild wrote ${written.join(', ')}, not one file`);

const body = fs.readFileSync(out);
const code = body.toString('utf8');
const evil = /\beval\s*\(|\bnew\s+Function\b/.exec(code);
if (evil) fail(`the bundle calls ${evil[0]} at byte ${evil.index}, which the page's CSP (no 'unsafe-eval') blocks`);

// What the bundle holds, by package (bytes of minified input), largest first.
const byPackage = new Map();
for (const [file, { bytesInOutput }] of Object.entries(result.metafile.outputs[written[0]].inputs)) {
  const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file;
  byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
}
const parts = [...byPackage].sort((a, b) => b[1] - a[1]).map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)}`);
console.log(`editor: holds (KB) ${parts.join(', ')}`);

const gzip9 = zlib.gzipSync(body, { level: 9 }).length;
if (release) {
  const gz = Buffer.from(await gzipAsync(body, { numiterations: 15 }));
  if (!zlib.gunzipSync(gz).equals(body)) fail('editor/editor.js.gz does not give back editor/editor.js');
  fs.writeFileSync(`${out}.gz`, gz);
  console.log(`editor: editor/editor.js ${body.length} B, gzip -9 ${gzip9} B, shipped ${gz.length} B (zopfli)`);
} else {
  console.log(`editor: editor/editor.js ${body.length} B, gzip -9 ${gzip9} B (debug build: no .gz)`);
}
