// Each shipped page, module, glue, loader and stylesheet also as `<file>.gz`, compressed with
// zopfli: a gzip stream that any browser reads, 4–5% smaller than `gzip -9` for these
// files (docs/sizes-and-speeds.md, "Time to ready"), made once at build time because it is slow (about
// 1.5 s per module). A static host that serves a file's `.gz` beside it to a browser
// that accepts gzip (nginx's `gzip_static on`, Caddy's `file_server { precompressed gzip }`,
// files uploaded with `Content-Encoding: gzip`) sends these; so does `ratelab serve
// --dist`. A host that compresses on the fly ignores them.
//
// Run at the end of scripts/short-names.mjs (release builds only: the files must be final
// before they are compressed, and trunk runs a stage's hooks side by side), or by hand:
// node scripts/precompress.mjs <dir>.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { gzipAsync } from '@gfx/zopfli';

/** The files worth compressing ahead: everything a page downloads first. The pages' HTML
 * is written by scripts/entry-pages.mjs, which scripts/post-build.mjs runs first. */
const SHIPPED = /(\.wasm|\.js|\.css|\.html)$/;

/** Writes `<file>.gz` for each shipped file of `dir`; checks that each decompresses to the
 * file, byte for byte, and returns [file, size, gzip size] for each. */
export async function precompress(dir) {
  const sizes = [];
  for (const name of fs.readdirSync(dir).filter((f) => SHIPPED.test(f)).sort()) {
    const file = path.join(dir, name);
    const body = fs.readFileSync(file);
    const gz = Buffer.from(await gzipAsync(body, { numiterations: 15 }));
    if (!zlib.gunzipSync(gz).equals(body)) throw new Error(`precompress: ${name}.gz does not give back ${name}`);
    fs.writeFileSync(`${file}.gz`, gz);
    sizes.push([name, body.length, gz.length]);
  }
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/precompress.mjs <built dist directory>');
    process.exit(2);
  }
  for (const [name, raw, gz] of await precompress(dir)) console.log(`precompress: ${name} ${raw} → ${gz} B`);
}
