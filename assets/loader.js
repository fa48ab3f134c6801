// Starts rate-limit-lab. Each page of the lab is a WebAssembly module of its own, so a
// reader downloads only the page they open: this file picks the module from the link,
// by the rule of the Rust table of pages (`Page::key`, `Page::module` and
// `Page::entry_file` in crates/page/src/query/page.rs). A browser test opens every page's
// file and link from that table and checks the module each loads
// (tests/browser/pages-table.test.mjs); a module given another page's link shows its own
// page, so a disagreement can never leave a blank page.
// It loads the module from next to this file, wherever that is served from (a site's
// root, a blog's sub-path), and it is a file, not an inline script, so the page's
// Content-Security-Policy can forbid inline scripts.
const base = new URL('./', import.meta.url).href;
window.rateLimitLabBase = base;

const query = new URLSearchParams(location.search);
// The first value of a key, trimmed, as the Rust side reads it.
const value = (key) => (query.get(key) ?? '').trim();

// The lab's own page (index.html) says so on its root element, which exists before the
// rest is parsed. It never holds widgets, so the link alone picks its module; a host page
// is read for widgets once it has been parsed.
const ownPage = document.documentElement.hasAttribute('data-rate-limit-lab-page');
const parsed = () =>
  document.readyState === 'loading'
    ? new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }))
    : Promise.resolve();
if (!ownPage) await parsed();

// The module a page file's head has already asked for (scripts/entry-pages.mjs marks
// each file, the lab's bare address included), if this is one.
const hinted = ownPage ? document.documentElement.getAttribute('data-rate-limit-lab-hint') : null;

// The keys that ask for a page (`Page::key`), and the walk's.
const PAGE_KEYS = ['embed', 'section', 'view', 'tour'];

function moduleName() {
  // Widgets in a host page, or the framed widget page.
  if ((!ownPage && document.querySelector('[data-rate-limit-lab]')) || value('embed') === '1') return 'rate-limit-lab-embed';
  // A page's own file opened with a link that asks for no page (`limits.html`,
  // `compare.html?seed=5`, or the bare address with a run's numbers) shows that page.
  if (hinted && !PAGE_KEYS.some((k) => value(k) !== '')) return hinted;
  if (value('section') === 'limits') return 'rate-limit-lab-limits';
  if (value('section') === 'headers') return 'rate-limit-lab-headers';
  if (value('view') === 'compare') return 'rate-limit-lab-compare';
  if (value('view') === 'sweep') return 'rate-limit-lab-sweep';
  if (value('view') === 'matrix') return 'rate-limit-lab-matrix';
  if (value('view') === 'client') return 'rate-limit-lab-client';
  // The run page with its guided walk: the link asks for the walk (`tour=1`, the rule of
  // `page::tour::opens_walk`). The lab's bare address with no query at all opens on the
  // opening story (crates/page/src/run/opening.rs), whose link starts the walk. Every
  // other run page goes without them.
  if (value('tour') === '1') return 'rate-limit-lab-tour';
  if (location.search.length <= 1) return 'rate-limit-lab-first';
  return 'rate-limit-lab';
}

// Each module's own file (`Page::entry_file`, `WALK_FILE` and `FIRST_MODULE`'s bare
// address; a test holds this list equal to them).
const FILES = {
  'rate-limit-lab': 'run.html',
  'rate-limit-lab-compare': 'compare.html',
  'rate-limit-lab-sweep': 'sweep.html',
  'rate-limit-lab-matrix': 'matrix.html',
  'rate-limit-lab-limits': 'limits.html',
  'rate-limit-lab-headers': 'headers.html',
  'rate-limit-lab-client': 'client.html',
  'rate-limit-lab-embed': 'embed.html',
  'rate-limit-lab-tour': 'walk.html',
  'rate-limit-lab-first': './',
};

const name = moduleName();

// A widget's host says what it is until its module mounts (a shadow root then hides
// this text), and says why, with a link to the lab, if the module cannot start. A host
// that holds the blog's own fallback text keeps it.
const hosts = ownPage ? [] : [...document.querySelectorAll('[data-rate-limit-lab]')];
const ours = new WeakSet();
const said = (host, text, link) => {
  if (host.shadowRoot || (host.textContent.trim() !== '' && !ours.has(host))) return;
  ours.add(host);
  host.replaceChildren(text);
  if (link) {
    const a = document.createElement('a');
    a.href = base;
    a.textContent = link;
    host.append(' ', a);
  }
};
for (const host of hosts) said(host, 'An interactive rate-limit lab is loading here.', null);
// A page file opened with another page's link (an old link to the bare address, say):
// its head is already downloading the wrong module, so rather than download the right
// one beside it, open the right file, with the same query. The navigation cancels the
// hint's download, and the right file's head starts the right module at once.
if (hinted && hinted !== name && FILES[name]) {
  location.replace(new URL(FILES[name] + location.search + location.hash, base));
  await new Promise(() => {});
}
// The client view's editor is a bundle of its own (editor/editor.js), imported by that
// view alone, when it asks: once it has painted, so its first screen waits for nothing.
if (name === 'rate-limit-lab-client') window.rateLimitLabEditor = () => import(new URL('editor/editor.js', base).href);
// A part of a page that is a module of its own, downloaded the first time the page asks
// for it (the limits page's fleet: crates/web/src/limits/fleet_view.rs): imported and
// started once, its exports handed back to each call.
const PARTS = { 'rate-limit-lab-limits': ['rate-limit-lab-fleet'] };
const started = new Map();
window.rateLimitLabPart = (part) => {
  if (!(PARTS[name] ?? []).includes(part)) return Promise.reject(new Error(`${part} is not a part of ${name}`));
  if (!started.has(part)) {
    const glue = import(new URL(`${part}.js`, base).href);
    started.set(part, glue.then(async (exports) => (await exports.default({ module_or_path: new URL(`${part}_bg.wasm`, base) }), exports)));
    // A part that failed to start is asked for again next time.
    started.get(part).catch(() => started.delete(part));
  }
  return started.get(part);
};
// Two pages start with a first module of their own, downloaded before the page's, so that
// their first buttons answer sooner; the page's module follows it down the line. Their
// bytes come whole, so that the next download starts the moment they have arrived, while
// they compile. The bare address, with no query, plays its opening story (painted by the
// shell) with its player (crates/web/src/run/opening_player.rs): Play, ← and → work once
// it has arrived. The run page (run.html, whose head asks for it) starts with the page
// down to its stage (crates/web/src/bin/rate-limit-lab-stage.rs), which hands its run to
// the whole page as that mounts (crates/web/src/run/hand_over.rs).
const OPENING = 'rate-limit-lab-opening';
const STAGE = 'rate-limit-lab-stage';
const firstName =
  name === 'rate-limit-lab-first' && location.search.length <= 1 ? OPENING : name === 'rate-limit-lab' ? STAGE : null;
const firstModule = firstName
  ? { name: firstName,
      bytes: fetch(new URL(`${firstName}_bg.wasm`, base)).then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(`${r.status} ${r.statusText}`)))),
      glue: import(new URL(`${firstName}.js`, base).href) }
  : null;
const opening = firstModule?.name === OPENING ? firstModule : null;
const first = firstModule ? firstModule.bytes.then(() => {}, () => {}) : Promise.resolve();
// The module's download starts now (after the first module's, if any), beside the JS glue's,
// not after it: on a slow link that saves a round trip and the glue's transfer before the
// largest file starts.
const wasm = first.then(() => fetch(new URL(`${name}_bg.wasm`, base)));
const glue = first.then(() => import(new URL(`${name}.js`, base).href));
// Their failures are reported below, once the page can show them.
wasm.catch(() => {});
glue.catch(() => {});
await parsed();

// The lab's own page paints a static shell (index.html) until the module has mounted: the
// header the page will show, and a line that says the lab is starting (or why it cannot).
// The words are the page layer's (crates/page/src/site/sections.rs; a test holds them equal).
const SHELLS = {
  'rate-limit-lab-limits': [
    'Publishing a limit',
    'Eight limiters, and what clients do with the limit they publish. Every experiment runs in simulated time, from a seed.',
  ],
  'rate-limit-lab-headers': [
    'The headers between them',
    'What a limiter tells its callers in each response, and how a client reads it, or misreads it.',
  ],
};
const shell = document.getElementById('rll-shell');
const loading = document.getElementById('rll-loading');
// The bare address's shell also holds the sections and the provider's rules for the
// article's numbers (index.html): right only for the run page with no query.
if (location.search.length > 1 || name !== 'rate-limit-lab-first') {
  document.getElementById('rll-shell-nav')?.remove();
  document.getElementById('rll-shell-intro')?.remove();
}
// Its opening story is the bare address's module's, with no query only.
if (!opening) document.getElementById('rll-opening')?.remove();
if (shell && name === 'rate-limit-lab-embed') {
  // The framed widget has no page header: only the line that it is starting.
  shell.querySelector('header')?.remove();
} else if (shell && SHELLS[name]) {
  const [title, lede] = SHELLS[name];
  document.getElementById('rll-shell-title').textContent = title;
  document.getElementById('rll-shell-lede').textContent = lede;
}
// The first module first: a failure leaves the page as the shell painted it, and the
// page's own module goes on.
let focused = null;
if (firstModule) {
  try {
    const exports = await firstModule.glue;
    await exports.default({ module_or_path: firstModule.bytes });
    if (firstModule.name === STAGE) {
      // The stage's page is on screen, after the shell: the shell goes in this same task.
      shell?.remove();
      // Called once, by the whole page's module as it mounts: the reader's focus is kept
      // for the same control on the whole page, which is then put back on it.
      window.rateLimitLabHandOver = () => {
        delete window.rateLimitLabHandOver;
        focused = focusKey(document.activeElement);
        return exports.hand_over();
      };
    }
  } catch (error) {
    console.warn(`The ${firstModule.name === STAGE ? "stage's first module" : "opening's player"} could not start (${error}).`);
  }
}
try {
  const { default: init } = await glue;
  await init({ module_or_path: wasm });
  // The module has mounted the page after the shell, in this same task: removing the
  // shell now means no frame ever shows both.
  (shell ?? loading)?.remove();
  delete window.rateLimitLabHandOver;
  if (focused) document.querySelectorAll(focused[0])[focused[1]]?.focus({ preventScroll: true });
} catch (error) {
  for (const host of hosts) said(host, `The interactive rate-limit lab could not start here (${error}).`, 'Open the lab on its own page.');
  if (loading) {
    loading.setAttribute('role', 'alert');
    loading.textContent = `The lab could not start (${error}). Reloading the page may help.`;
  }
  throw error;
}

// A control the reader has focus on, as a selector and its index among the matches: the
// same control on the page that takes the screen over matches it the same way.
function focusKey(el) {
  if (!el || el === document.body) return null;
  for (const attr of ['id', 'data-testid', 'data-strategy', 'data-slot', 'name']) {
    const value = el.getAttribute(attr);
    if (!value) continue;
    const selector = `${el.localName}[${attr}="${CSS.escape(value)}"]`;
    return [selector, [...document.querySelectorAll(selector)].indexOf(el)];
  }
  return null;
}
