// The sandbox's frame (sandbox/index.html): the lab opens it in an <iframe sandbox="allow-scripts">,
// so its origin is opaque, and its own Content-Security-Policy gives it no network, no
// storage, no plugins and no frames. It takes one message from the lab that opened it:
// the module's glue and bytes, the harness (sandbox/harness.js), the reader's code and
// the run's query. It builds one worker of them, relays the worker's messages back
// (checked by type, with only the fields the lab reads), and stops the worker when the
// lab asks or when the worker's code holds the thread longer than the watchdog allows.
'use strict';
const WATCHDOG_MS = 3000;
/** The longest a whole run may take on the wall clock. */
const RUN_LIMIT_MS = 60_000;
let worker = null;
let lastHeardMs = 0;
let watchdog = 0;

const toLab = (message) => self.parent.postMessage(message, '*');

function stop() {
  worker?.terminate();
  worker = null;
  clearInterval(watchdog);
}

/** The reader's code as a script: `export` before a declaration is dropped; `import`
 * and `export default` are refused with a report naming the line. */
function prepare(code) {
  const lines = code.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*import[\s{*'"]/.test(lines[i])) {
      return { report: { kind: 'import', line: i + 1, column: 1 } };
    }
    if (/^\s*export\s+default\b/.test(lines[i])) {
      return { report: { kind: 'default-export', line: i + 1, column: 1 } };
    }
    lines[i] = lines[i].replace(/^(\s*)export\s+(?=(async\s+)?function\b|const\b|let\b|var\b|class\b)/, '$1');
  }
  return { code: lines.join('\n') };
}

function start({ glue, harness, code, query, wasm }) {
  stop();
  const prepared = prepare(String(code));
  if (prepared.report) {
    toLab({ type: 'failed', report: prepared.report });
    return;
  }
  const head = `${glue}\n${harness}\nfunction __userMain() { 'use strict';\n`;
  const preludeLines = head.split('\n').length - 1;
  const tail = "\n;return { charge: typeof charge === 'function' ? charge : undefined };\n}\n" +
    'self.onmessage = (e) => { self.onmessage = null; __harness.run(e.data, __userMain); };\n';
  const url = URL.createObjectURL(new Blob([head, prepared.code, tail], { type: 'text/javascript' }));
  worker = new Worker(url);
  URL.revokeObjectURL(url);
  lastHeardMs = performance.now();
  worker.onerror = (event) => {
    event.preventDefault();
    const line = event.lineno - preludeLines;
    toLab({ type: 'failed', report: { kind: 'syntax', message: String(event.message), line: line >= 1 ? line : null, column: line >= 1 ? event.colno : null } });
    stop();
  };
  worker.onmessage = ({ data }) => {
    lastHeardMs = performance.now();
    if (data?.type === 'progress') {
      const { settled, customers, nowUs, events } = data;
      toLab({ type: 'progress', settled, customers, nowUs, events });
    } else if (data?.type === 'done' || data?.type === 'failed') {
      const { results, ops, keyText, keyLengths, unfinished, stopped, errors, log, logDropped, events, nowUs, wallMs, report } = data;
      const moved = [ops, keyLengths].filter((a) => a instanceof Float64Array || a instanceof Uint32Array).map((a) => a.buffer);
      self.parent.postMessage({ type: data.type, results, ops, keyText, keyLengths, unfinished, stopped, errors, log, logDropped, events, nowUs, wallMs, report }, '*', moved);
      stop();
    }
  };
  const startedMs = performance.now();
  watchdog = setInterval(() => {
    if (worker && performance.now() - startedMs > RUN_LIMIT_MS) {
      toLab({ type: 'failed', report: { kind: 'wall-limit', n: RUN_LIMIT_MS } });
      stop();
    } else if (worker && performance.now() - lastHeardMs > WATCHDOG_MS) {
      toLab({ type: 'failed', report: { kind: 'watchdog', n: WATCHDOG_MS } });
      stop();
    }
  }, 250);
  worker.postMessage({ query: String(query), wasm, prelude: preludeLines }, [wasm]);
}

self.addEventListener('message', (event) => {
  if (event.source !== self.parent) return;
  const message = event.data;
  if (message?.type === 'run' && typeof message.code === 'string' && message.wasm instanceof ArrayBuffer) start(message);
  else if (message?.type === 'stop') stop();
});
toLab({ type: 'ready' });
