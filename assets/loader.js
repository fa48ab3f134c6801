// Starts rate-limit-lab: loads the WebAssembly next to this file, wherever it is served
// from, so the same build works at a site's root, under a blog's sub-path, or embedded.
// It is a file of its own, not an inline script, so the page's Content-Security-Policy
// can forbid inline scripts.
import init from './rate-limit-lab.js';

const base = new URL('./', import.meta.url).href;
window.rateLimitLabBase = base;
await init({ module_or_path: new URL('rate-limit-lab_bg.wasm', base) });
