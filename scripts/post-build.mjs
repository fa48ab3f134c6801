// What trunk runs after each build (Trunk.toml's one post_build hook), in order: trunk runs
// a stage's hooks side by side, and later steps minify and compress the pages the second
// writes.
// 0. scripts/editor.mjs: the code editor of the "your own client" view, bundled into
//    editor/editor.js (every build: `trunk serve` shows that view too), and its .gz in a
//    release build (the last step compresses the top of dist/ only);
// 1. scripts/entry-pages.mjs: each page's file, with the hint for its module (every build);
// 2. scripts/minify-assets.mjs: the stylesheet minified, each page file's own stylesheet
//    with its hash, the loader, the worker's script and the page files minified (release
//    builds only);
// 3. scripts/short-names.mjs: short import and export names, the glue minified, and every
//    shipped file precompressed (release builds only).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
for (const step of ['editor.mjs', 'entry-pages.mjs', 'minify-assets.mjs', 'short-names.mjs']) {
  execFileSync(process.execPath, [path.join(HERE, step), ...process.argv.slice(2)], { stdio: 'inherit' });
}
