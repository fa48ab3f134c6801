// Shared pieces of the browser tests: a static server for dist/, Debian's chromium
// driven by playwright-core, and the native CLI for expected numbers.
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = process.env.RLL_DIST ?? path.join(ROOT, 'dist');
export const SHOTS = path.join(ROOT, 'target', 'screenshots');
const RATELAB = process.env.RATELAB_BIN ?? path.join(ROOT, 'target', 'release', 'ratelab');
const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/** Serves `dir` under `prefix` (e.g. '/' or '/blog/lab/') on a free port; `extra` maps
 * other paths (e.g. '/blog/post.html') to files. */
export async function serve(dir = DIST, prefix = '/', extra = {}) {
  // Room for the hostile corpus's very long URLs (Node's default header limit is 16 KB).
  const server = http.createServer({ maxHeaderSize: 1 << 20 }, (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (extra[url.pathname]) {
      res.writeHead(200, { 'content-type': TYPES[path.extname(extra[url.pathname])] });
      fs.createReadStream(extra[url.pathname]).pipe(res);
      return;
    }
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404).end('not under ' + prefix);
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length)) || 'index.html';
    const file = path.join(dir, rel);
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}${prefix}`;
  return { base, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Launches Debian's chromium, headless, with the flags this machine needs. */
export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A new page that records uncaught errors and console errors in `page.errors`. Closing
 * its context (`page.context().close()`, as every test does) first checks what the page
 * then shows against its stylesheet ([`unstyledRules`]), so each test's last state is
 * checked too. */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const close = context.close.bind(context);
  context.close = async (...args) => {
    // A page already closed, or one whose document went away while it was read (a test
    // that ends mid-navigation), has nothing left to check.
    const missing = page.isClosed() ? [] : await unstyledRules(page).catch(() => []);
    await close(...args);
    assert.deepEqual(missing, [], `${page.url()}: its stylesheet lacks rules main.css applies to what it shows`);
  };
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => {
    // A fixture page without a favicon is not an error of ours.
    if (m.type() === 'error' && !(m.text().includes('404') && m.location().url.endsWith('favicon.ico'))) {
      page.errors.push('console: ' + m.text());
    }
  });
  return page;
}

/** The rules of the whole stylesheet (main.css) that apply to an element of the page,
 * by selector, and that the stylesheet its file carries lacks. A release build gives each
 * page file its own in a `<style data-stylesheet>` element, main.css without the rules its
 * module never needs (scripts/minify-assets.mjs); a debug build, and a blog's widgets,
 * link main.css itself, and a page with no such element has nothing to check. Pseudo-elements and states
 * (`::before`, `:hover`) are taken off a selector before it is looked for, so a rule for
 * them counts where its element is. */
export async function unstyledRules(page) {
  return page.evaluate(async () => {
    const style = document.querySelector('style[data-stylesheet]');
    if (!style) return [];
    const sheet = (text) => {
      const s = new CSSStyleSheet();
      s.replaceSync(text);
      return s;
    };
    const base = window.rateLimitLabBase ?? new URL('./', location.href).href;
    const whole = sheet(await (await fetch(new URL('main.css', base))).text());
    const own = sheet(style.textContent);
    // Each style rule, under the conditions it sits in, as one string.
    const rules = (list, within = '') =>
      [...list].flatMap((r) =>
        r.cssRules && !(r instanceof CSSStyleRule)
          ? rules(r.cssRules, `${within}@${r.conditionText ?? r.cssText.split('{')[0]} `)
          : r instanceof CSSStyleRule ? [[`${within}${r.cssText}`, r.selectorText]] : [],
      );
    const kept = new Set(rules(own.cssRules).map(([text]) => text));
    const bare = (selector) =>
      selector.replace(/::?(before|after|marker|placeholder|selection|backdrop|-webkit-[a-z-]+)/g, '')
        .replace(/:(hover|focus|focus-visible|focus-within|active|visited)(?![\w-])/g, '');
    const applies = (selector) => {
      try {
        return document.querySelector(bare(selector) || '*') !== null;
      } catch {
        return false;
      }
    };
    return rules(whole.cssRules).filter(([text, selector]) => !kept.has(text) && applies(selector)).map(([text]) => text.slice(0, 160));
  });
}

/** Waits until the app's root reports `state`. */
export async function waitForState(page, state, timeout = 30_000) {
  await page.waitForSelector(`[data-testid="app"][data-run-state="${state}"]`, { timeout });
}

/** Every `data-stat` counter on the page, as its digits (the cards write 1,234). */
export async function readStats(page) {
  return page.$$eval('[data-stat]', (els) =>
    Object.fromEntries(els.map((e) => [e.dataset.stat, e.textContent.trim().replace(/,/g, '')])),
  );
}

/** A counter's digits, as the CLI's JSON writes them: "1,234" is "1234". */
export function digits(text) {
  return text.trim().replace(/,/g, '');
}

export const FIXTURES = path.join(ROOT, 'tests', 'browser', 'fixtures');

/** The CLI's plain output. */
export function cliText(args) {
  return execFileSync(RATELAB, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** The CLI's JSON for a run. */
export function cli(args) {
  return JSON.parse(execFileSync(RATELAB, [...args, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
}

/** Every `data-result` cell under `selector`, as key → text. */
export async function readResults(page, selector = 'body') {
  return page.$$eval(`${selector} [data-result]`, (els) =>
    Object.fromEntries(els.map((e) => [e.dataset.result, e.textContent.trim()])),
  );
}

export function screenshotPath(name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  return path.join(SHOTS, name);
}

/** Registers `before`/`after` hooks that serve dist/ and launch chromium once for a test
 * file; returns an object whose `server` and `browser` are set by then. */
export function useLab(before, after) {
  const lab = { server: null, browser: null };
  before(async () => {
    lab.server = await serve();
    lab.browser = await launch();
  });
  after(async () => {
    await lab.browser?.close();
    await lab.server?.close();
  });
  return lab;
}

/** How the footers start a command (crates/page/src/site/words.rs, `CLI_PREFIX`). */
export const CLI_PREFIX = 'cargo run --release --bin ratelab --';

/** The words a POSIX shell reads in `line`, for the footers' commands: single quotes and
 * backslashes outside them, nothing else (no variables, globs or double quotes). */
export function shellWords(line) {
  const words = [];
  let word = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed quote in ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (/["$`*?~]/.test(c)) {
      throw new Error(`the command needs more than single quotes: ${line}`);
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** The arguments of the page's footer command (`[data-testid=cli-command]`), without its
 * `cargo run` prefix. */
export async function footerArgs(page) {
  const line = (await page.textContent('[data-testid="cli-command"]')).trim();
  if (!line.startsWith(CLI_PREFIX + ' ')) throw new Error(`the footer's command does not start with ${CLI_PREFIX}: ${line}`);
  return shellWords(line.slice(CLI_PREFIX.length));
}

/** Asserts that the page's address (`location.search`) holds each of `expected`'s keys
 * with its value, in any order and beside any other keys. */
export async function assertAddress(page, expected, message = '') {
  const search = await page.evaluate(() => location.search);
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(expected)) {
    if (params.get(key) !== value) {
      throw new assert.AssertionError({ message: `${message}${message && ': '}${key}=${value} in ${search}`, actual: params.get(key), expected: value, operator: 'equal' });
    }
  }
}
