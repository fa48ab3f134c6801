// Classes a dependency exports through wasm-bindgen that no page of the lab can make, taken
// out of a module and its JS glue (scripts/short-names.mjs runs this first).
//
// wasm-streams' three adapters between Rust streams and the browser's Streams API come
// with leptos's server functions (server_fn, feature "browser"), which the lab never
// uses. wasm-bindgen exports each adapter's methods from the module and writes a class
// for each in the glue, and an exported function is never dead to wasm-opt: their code,
// and the glue's classes, were in every page (the run page's module 1.2 KB by gzip -9:
// docs/sizes-and-speeds.md, "Unused stream adapters").
//
// For each listed class the glue exports:
// 1. its class, its finalizer and its `Symbol.dispose` hook leave the glue, found with a
//    JavaScript parser (acorn); any other mention of the class fails the build, since
//    the module might then make one;
// 2. the module's exports only those statements read leave the module (binaryen), and
//    wasm-opt drops the code and the imports nothing reaches any more;
// 3. the glue's import object loses the imports the module no longer asks for.
// short-names.mjs then checks the glue against the module, as for every build.
import fs from 'node:fs';
import * as acorn from 'acorn';
import binaryen from 'binaryen';

export const UNUSED_CLASSES = ['IntoUnderlyingByteSource', 'IntoUnderlyingSink', 'IntoUnderlyingSource'];

const PARSE = { ecmaVersion: 'latest', sourceType: 'module' };

/** Every identifier in `text`, by acorn's tokenizer. */
function namesIn(text) {
  const names = new Set();
  for (const token of acorn.tokenizer(text, PARSE)) if (token.type.label === 'name') names.add(token.value);
  return names;
}

/** `js` without the source ranges of `nodes`. */
function cutOut(js, nodes) {
  let out = '';
  let at = 0;
  for (const node of [...nodes].sort((a, b) => a.start - b.start)) {
    out += js.slice(at, node.start);
    at = node.end;
  }
  return out + js.slice(at);
}

/** The `wasm.<name>` exports `text` reads. */
const exportsRead = (text) => new Set([...text.matchAll(/wasm\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]));

/**
 * Takes the unused classes out of the glue `js` and the module at `wasmPath` (rewritten
 * in place). `optimize(path)` runs wasm-opt over the module; `fail(why)` stops the build.
 * Returns the new glue, the classes taken out, and how many exports and imports went with
 * them.
 */
export function dropUnusedClasses(js, wasmPath, { optimize, fail }) {
  const body = acorn.parse(js, PARSE).body;
  const cut = new Set();
  const dropped = [];
  for (const name of UNUSED_CLASSES) {
    const declared = body.find(
      (n) => n.type === 'ExportNamedDeclaration' && n.declaration?.type === 'ClassDeclaration' && n.declaration.id?.name === name,
    );
    if (!declared) continue;
    dropped.push(name);
    const finalizer = `${name}Finalization`;
    for (const node of body) {
      if (node === declared) {
        cut.add(node);
        continue;
      }
      const names = namesIn(js.slice(node.start, node.end));
      if (!names.has(name) && !names.has(finalizer)) continue;
      const isFinalizer =
        node.type === 'VariableDeclaration' && node.declarations.length === 1 && node.declarations[0].id.name === finalizer;
      const isDispose =
        node.type === 'IfStatement' &&
        node.test.type === 'MemberExpression' &&
        node.test.object.name === 'Symbol' &&
        node.test.property.name === 'dispose' &&
        !names.has(finalizer);
      if (!isFinalizer && !isDispose) {
        fail(`the glue uses ${name} beyond its class, so a page might make one: ${js.slice(node.start, node.start + 80)}…`);
      }
      cut.add(node);
    }
  }
  if (dropped.length === 0) return { js, dropped };

  // 1. The glue without them.
  let out = cutOut(js, cut);
  // 2. The exports only they read.
  const left = exportsRead(out);
  const unread = new Set();
  for (const node of cut) for (const e of exportsRead(js.slice(node.start, node.end))) if (!left.has(e)) unread.add(e);
  const module = binaryen.readBinary(fs.readFileSync(wasmPath));
  for (const e of unread) {
    if (!module.getExport(e)) fail(`the glue's ${e} is not exported by ${wasmPath}`);
    module.removeExport(e);
  }
  fs.writeFileSync(wasmPath, module.emitBinary());
  module.dispose();
  optimize(wasmPath);
  // 3. The import object without the imports the module no longer asks for.
  const asked = new Set(WebAssembly.Module.imports(new WebAssembly.Module(fs.readFileSync(wasmPath))).map((i) => i.name));
  let object = null;
  acorn.parse(out, PARSE).body.forEach((node) => {
    if (node.type !== 'FunctionDeclaration' || node.id.name !== '__wbg_get_imports') return;
    for (const stmt of node.body.body) {
      const init = stmt.type === 'VariableDeclaration' && stmt.declarations[0].id.name === 'import0' && stmt.declarations[0].init;
      if (init?.type === 'ObjectExpression') object = init;
    }
  });
  if (!object) fail(`the glue has no import object (\`const import0 = {…}\` in __wbg_get_imports)`);
  const keyOf = (p) => (p.key.type === 'Identifier' ? p.key.name : String(p.key.value));
  const props = object.properties.filter((p) => p.type === 'Property' && keyOf(p) !== '__proto__');
  const unasked = props.filter((p) => !asked.has(keyOf(p)));
  // Each property with the comma wasm-bindgen writes after every one.
  const spans = unasked.map((p) => {
    const comma = out.indexOf(',', p.end);
    if (comma < 0 || out.slice(p.end, comma).trim() !== '') fail(`no comma after the glue's import ${keyOf(p)}`);
    return { start: p.start, end: comma + 1 };
  });
  out = cutOut(out, spans);
  return { js: out, dropped, exports: unread.size, imports: unasked.length };
}
