// Short names between each module and its JS glue, and the glue minified. wasm-bindgen
// names every import after the Rust function and a 16-digit hash
// (`__wbg_set_innerHTML_a9d3a267967b5117`), from a module named after the glue's file, and
// writes each name twice: in the .wasm's import section and in the glue's import object.
// Hashes do not compress, so across ~200 imports they cost the run page about 2.6 KB of
// its gzipped .wasm and 2.7 KB of its glue; the glue's whitespace and long local names
// another 2.4 KB (docs/sizes-and-speeds.md, "Time to ready").
//
// For each `<name>_bg.wasm` beside its `<name>.js`:
// 0. the classes a dependency exports that no page can make leave both (scripts/unused-classes.mjs);
// 1. binaryen's `--minify-imports-and-exports-and-modules` renames every import, export and
//    import module, and prints what it renamed (then its size passes run once more);
// 2. the glue's import object, its module key and every `wasm.<export>` take the new names;
// 3. the result is checked against the renamed module itself (WebAssembly.Module.imports
//    and .exports): every import the module asks for is in the object and nothing else,
//    and every export the glue reads exists. Any mismatch fails the build;
// 4. terser minifies the glue (an ES module: its exports keep their names).
// Then every shipped file is compressed ahead with zopfli (scripts/precompress.mjs).
//
// Run by trunk after each release build (Trunk.toml's post_build hook), or by hand on a
// built dist/: node scripts/short-names.mjs [dir]. A debug build (`trunk serve`) is left
// readable.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { minify } from 'terser';
import { precompress } from './precompress.mjs';
import { dropUnusedClasses } from './unused-classes.mjs';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('usage: node scripts/short-names.mjs <built dist directory> (trunk sets TRUNK_STAGING_DIR)');
  process.exit(2);
}
if (!process.argv[2] && process.env.TRUNK_PROFILE !== 'release') process.exit(0);

// The features rustc's wasm32 output uses (wasm-opt would refuse a module with others).
const FEATURES = ['bulk-memory', 'nontrapping-float-to-int', 'sign-ext', 'mutable-globals', 'reference-types', 'multivalue']
  .map((f) => `--enable-${f}`);
// After the renaming, a second round of binaryen's size passes (each until nothing changes,
// around a flatten and re-loop of the control flow): 0.2–1.8 KB less per module with
// zopfli (run 1.8 KB, limits 1.3 KB), where running the same passes again before the
// renaming gave almost nothing (docs/sizes-and-speeds.md, "Techniques").
const REOPTIMIZE = ['-Oz', '--converge', '--flatten', '--rereloop', '-Oz', '--converge'];
// The simulation worker's module is built for speed (opt-level 3, `wasm-opt -O3`): it is
// never on a first load, and the size passes would slow it down.
// So is the sandbox's module (rate-limit-lab-sandbox), fetched only on the view that runs a
// reader's own client.
const FOR_SPEED = new Set(['rate-limit-lab-sim', 'rate-limit-lab-sandbox']);
const wasmOpt = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'node_modules', '.bin', 'wasm-opt');

const fail = (why) => {
  console.error(`short-names: ${why}`);
  process.exit(1);
};

for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('_bg.wasm')).sort()) {
  const stem = file.slice(0, -'_bg.wasm'.length);
  const wasmPath = path.join(dir, file);
  const jsPath = path.join(dir, `${stem}.js`);
  if (!fs.existsSync(jsPath)) fail(`${file} has no ${stem}.js beside it`);
  let js = fs.readFileSync(jsPath, 'utf8');
  const moduleKey = `"./${stem}_bg.js": import0`;
  if (!js.includes(moduleKey)) {
    // Already renamed (a second run on the same directory): nothing to do.
    if (js.includes('"./')) fail(`${stem}.js has no ${moduleKey} to rename`);
    continue;
  }
  const before = [fs.statSync(wasmPath).size, js.length];

  // 0. What no page can make leaves the glue and the module first (scripts/unused-classes.mjs).
  const unused = dropUnusedClasses(js, wasmPath, {
    optimize: (p) => execFileSync(wasmOpt, [...FEATURES, FOR_SPEED.has(stem) ? '-O3' : '-Oz', p, '-o', p]),
    fail,
  });
  js = unused.js;
  if (unused.dropped.length > 0) {
    console.log(`short-names: ${stem}: without ${unused.dropped.join(', ')} (${unused.exports} exports, ${unused.imports} imports fewer)`);
  }

  const printed = execFileSync(wasmOpt, [...FEATURES, '--minify-imports-and-exports-and-modules', wasmPath, '-o', wasmPath], {
    encoding: 'utf8',
  });
  const renamed = JSON.parse(printed.slice(printed.indexOf('{')));
  execFileSync(wasmOpt, [...FEATURES, ...(FOR_SPEED.has(stem) ? ['-O3'] : REOPTIMIZE), wasmPath, '-o', wasmPath]);
  const module = new WebAssembly.Module(fs.readFileSync(wasmPath));
  const modules = new Set(WebAssembly.Module.imports(module).map((i) => i.module));
  if (modules.size !== 1) fail(`${file} imports from ${modules.size} modules, not one`);
  const [newModule] = modules;

  for (const [from, name, to] of renamed.imports) {
    if (from !== `./${stem}_bg.js`) fail(`${file} imports ${name} from ${from}`);
    const key = new RegExp(`^(\\s+)${name}: function`, 'm');
    if (!key.test(js)) fail(`${stem}.js has no import ${name}`);
    js = js.replace(key, `$1${JSON.stringify(to)}: function`);
  }
  js = js.replace(moduleKey, `${JSON.stringify(newModule)}: import0`);
  const exportsRenamed = new Map(renamed.exports);
  js = js.replace(/wasm\.([A-Za-z_$][\w$]*)/g, (all, name) => {
    if (!exportsRenamed.has(name)) fail(`${stem}.js reads wasm.${name}, which ${file} does not export`);
    return `wasm[${JSON.stringify(exportsRenamed.get(name))}]`;
  });

  // The check: the import object against what the module asks for, and every export read.
  const asked = WebAssembly.Module.imports(module).map((i) => i.name).sort();
  const given = [...js.matchAll(/^\s+("[^"]*"): function/gm)].map((m) => JSON.parse(m[1])).sort();
  if (asked.join('\n') !== given.join('\n')) fail(`${stem}.js's imports differ from what ${file} asks for`);
  const exported = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
  for (const [, name] of js.matchAll(/wasm\["([^"]*)"\]/g)) {
    if (!exported.has(name)) fail(`${stem}.js reads ${name}, which ${file} does not export`);
  }

  // A glue built `--target no-modules` (the sandbox's: a classic script for a worker in a
  // sandboxed frame) defines the global `wasm_bindgen`, which must keep its name.
  const classic = /^let wasm_bindgen\b/m.test(js);
  const small = await minify(js, { module: !classic, compress: true, mangle: true, format: { comments: false } });
  fs.writeFileSync(jsPath, small.code);
  const after = [fs.statSync(wasmPath).size, small.code.length];
  console.log(`short-names: ${stem}: .wasm ${before[0]} → ${after[0]} B, glue ${before[1]} → ${after[1]} B (uncompressed)`);
}
for (const [name, raw, gz] of await precompress(dir)) console.log(`precompress: ${name} ${raw} → ${gz} B (zopfli)`);
