// Starts rate-limit-lab. Each page of the lab is a WebAssembly module of its own, so a
// reader downloads only the page they open: this file picks the module from the link,
// by the same rule as `PageQuery::page` in src/page/mod.rs (a module given another page's
// link shows its own page, so a disagreement can never leave a blank page).
// It loads the module from next to this file, wherever that is served from (a site's
// root, a blog's sub-path), and it is a file, not an inline script, so the page's
// Content-Security-Policy can forbid inline scripts.
const base = new URL('./', import.meta.url).href;
window.rateLimitLabBase = base;

const query = new URLSearchParams(location.search);
// The first value of a key, trimmed, as the Rust side reads it.
const value = (key) => (query.get(key) ?? '').trim();

function moduleName() {
  // Widgets in a host page, or the framed widget page.
  if (document.querySelector('[data-rate-limit-lab]') || value('embed') === '1') return 'rate-limit-lab-embed';
  if (value('section') === 'limits') return 'rate-limit-lab-limits';
  if (value('section') === 'headers') return 'rate-limit-lab-headers';
  if (value('view') === 'compare') return 'rate-limit-lab-compare';
  if (value('view') === 'sweep') return 'rate-limit-lab-sweep';
  return 'rate-limit-lab';
}

// The lab's own page says "Loading…" until the module has mounted, and why, if it cannot.
const loading = document.getElementById('rll-loading');
const name = moduleName();
// The module's download starts now, beside the JS glue's, not after it: on a slow link
// that saves a round trip and the glue's transfer before the largest file starts.
const wasm = fetch(new URL(`${name}_bg.wasm`, base));
try {
  const { default: init } = await import(new URL(`${name}.js`, base).href);
  await init({ module_or_path: wasm });
  loading?.remove();
} catch (error) {
  if (loading) {
    loading.setAttribute('role', 'alert');
    loading.textContent = `The lab could not start (${error}). Reloading the page may help.`;
  }
  throw error;
}
