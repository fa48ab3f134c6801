// The sandbox's harness: the first part of the worker a reader's client runs in (the
// frame, assets/sandbox/frame.js, puts the reader's code after it and starts it). It
// gives the code the simulated clock and the provider, and nothing else:
//
// - setTimeout, clearTimeout, setInterval, clearInterval, Date.now(), new Date(),
//   performance.now() and AbortSignal.timeout() run on the run's clock, in microseconds
//   (setTimeout(f, 11.111) waits 11,111 µs, where a browser would round it to 11 ms);
// - fetch(`${baseUrl}/charge`, …) reaches the simulation's provider through the door
//   `ratelab serve` has (the module rate-limit-lab-sandbox, built from the core);
// - Math.random() draws from the run's seed (the stream the lab's strategies use); console.log and its kin are kept, each
//   line with the simulated instant it was written at.
//
// Time moves as the simulation's does: one event at a time, in (time, sequence) order,
// and before each the worker lets every promise job settle (a message to itself, which
// runs only once the microtask queue is empty). A run ends when no event is left: every
// customer settled, or some never will be (counted as unfinished). Every store is capped:
// events waiting, console lines, errors kept; past a cap, the run stops and names the cap.
// No sentence the page shows is written here: a report names what happened ({ kind, n,
// message, line, column }) and the page says it (crates/page/src/client/outcome.rs).
//
// Messages: the frame posts { type: 'run', query, wasm } once; the harness posts
// { type: 'progress', … } now and then and { type: 'done', … } or { type: 'failed',
// report } at the end. A run that is done hands back its calls (`ops`, flat numbers) and
// key texts (`keyText`, all of them in one, cut by `keyLengths`), which the page replays through its own run of the core, and its results as
// the sandbox's module counted them. The reader's code is wrapped in a function the harness calls after the
// module is ready, so its line numbers are its own plus PRELUDE_LINES (set by the frame).
/* global wasm_bindgen */
'use strict';
const __harness = (() => {
  const realPost = self.postMessage.bind(self);
  const RealDate = self.Date;
  const realPerformanceNow = performance.now.bind(performance);
  const realSetTimeout = self.setTimeout.bind(self);
  const channel = new MessageChannel();
  const BASE_URL = 'https://provider.sandbox';
  /** The most events that may wait at once, console lines kept, errors kept. */
  const MAX_EVENTS = 1_000_000;
  const MAX_LOG_LINES = 2_000;
  const MAX_LOG_LINE_CHARS = 500;
  const MAX_ERRORS = 20;
  /** The most events a run handles: timers, answers and arrivals. */
  const MAX_EVENTS_RUN = 10_000_000;
  /** The longest a run may last on the simulated clock: a day. */
  const MAX_RUN_US = 86_400_000_000;
  /** Where the simulated clock's Date starts: 2026-01-01T00:00:00Z. */
  const EPOCH_MS = 1_767_225_600_000;

  let nowUs = 0;
  let seq = 0;
  let sandbox = null;
  let stopped = null; // the report of why the run stopped early, if it did
  const log = [];
  const errors = [];
  let logDropped = 0;

  // The event queue: a binary min-heap on (t, seq).
  const heap = [];
  const before = (a, b) => a.t < b.t || (a.t === b.t && a.seq < b.seq);
  function push(e) {
    heap.push(e);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(heap[i], heap[p])) break;
      [heap[i], heap[p]] = [heap[p], heap[i]];
      i = p;
    }
  }
  function pop() {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && before(heap[l], heap[m])) m = l;
        if (r < heap.length && before(heap[r], heap[m])) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    }
    return top;
  }
  function schedule(tUs, fn) {
    if (heap.length >= MAX_EVENTS) {
      stop({ kind: 'events-waiting', n: MAX_EVENTS });
      return { cancelled: true };
    }
    const e = { t: Math.max(tUs, nowUs), seq: seq++, fn, cancelled: false };
    push(e);
    return e;
  }
  function stop(report) {
    stopped ??= report;
  }
  /** A delay in ms as whole µs: not a number, negative or infinite is 0. */
  function delayUs(ms) {
    const n = Number(ms);
    return Number.isFinite(n) && n > 0 ? Math.round(n * 1000) : 0;
  }

  // Where in the reader's code an error came from: its line, counted in the code.
  let preludeLines = 0;
  function where(error) {
    const stack = String(error?.stack ?? '');
    for (const m of stack.matchAll(/:(\d+):(\d+)\)?\s*$/gm)) {
      const line = Number(m[1]) - preludeLines;
      if (line >= 1) return { line, column: Number(m[2]) };
    }
    return null;
  }
  function noteError(kind, error) {
    if (errors.length >= MAX_ERRORS) return;
    const at = where(error);
    errors.push({ kind, message: String(error?.message ?? error), line: at?.line ?? null, column: at?.column ?? null, tUs: nowUs });
  }
  // Runs a callback of the reader's, noting (not rethrowing) what it throws.
  function guarded(fn, args) {
    try {
      fn(...args);
    } catch (error) {
      noteError('exception', error);
    }
  }

  // Timers on the simulated clock.
  const timers = new Map();
  let nextTimerId = 1;
  function setTimer(fn, ms, args, repeat) {
    if (typeof fn !== 'function') throw new TypeError('the sandbox runs timers of functions only, not of strings');
    const id = nextTimerId++;
    const every = Math.max(delayUs(ms), repeat ? 1 : 0);
    const arm = (tUs) => {
      timers.set(id, schedule(tUs, () => {
        if (repeat) arm(nowUs + every);
        else timers.delete(id);
        guarded(fn, args);
      }));
    };
    arm(nowUs + every);
    return id;
  }
  function clearTimer(id) {
    const e = timers.get(id);
    if (e) e.cancelled = true;
    timers.delete(id);
  }
  self.setTimeout = (fn, ms, ...args) => setTimer(fn, ms, args, false);
  self.setInterval = (fn, ms, ...args) => setTimer(fn, ms, args, true);
  self.clearTimeout = clearTimer;
  self.clearInterval = clearTimer;

  // The clock's readings.
  const epochNow = () => EPOCH_MS + Math.floor(nowUs / 1000);
  class SimDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(epochNow());
      else super(...args);
    }
    static now() {
      return epochNow();
    }
  }
  self.Date = SimDate;
  Object.defineProperty(performance, 'now', { value: () => nowUs / 1000, configurable: true });

  // AbortSignal.timeout on the simulated clock.
  const RealAbortSignal = self.AbortSignal;
  RealAbortSignal.timeout = (ms) => {
    const controller = new AbortController();
    schedule(nowUs + delayUs(ms), () => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')));
    return controller.signal;
  };

  // Math.random from the run's seed: the client's one stream of the run's dice, the
  // draws the lab's own strategies take their jitter from, in the same order.
  let randoms = 0;
  Math.random = () => sandbox.client_random(randoms++);

  // console: kept, with the simulated instant.
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    console[level] = (...args) => {
      if (log.length >= MAX_LOG_LINES) {
        logDropped++;
        return;
      }
      const text = args.map((a) => (typeof a === 'string' ? a : safeText(a))).join(' ');
      log.push({ tUs: nowUs, level, text: text.slice(0, MAX_LOG_LINE_CHARS) });
    };
  }
  function safeText(value) {
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  }

  // fetch: the provider's one endpoint, through its door.
  function errorResponse(status, sentence) {
    return new Response(JSON.stringify({ error: sentence }), { status, headers: { 'content-type': 'application/json' } });
  }
  self.fetch = (input, init = {}) => {
    const url = String(input?.url ?? input);
    const method = String(init.method ?? input?.method ?? 'GET').toUpperCase();
    const signal = init.signal ?? null;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      let answered = false;
      let request = -1;
      const settle = (response) => {
        answered = true;
        resolve(response);
      };
      const path = url.startsWith(BASE_URL) ? url.slice(BASE_URL.length) : null;
      if (path === null) {
        // Nothing leaves the sandbox: any other address fails as an unreachable one does.
        schedule(nowUs, () => reject(new TypeError(`fetch failed: the sandbox has no network; the provider is at ${BASE_URL}`)));
        return;
      }
      if (path !== '/charge') {
        schedule(nowUs, () => settle(errorResponse(404, `${path} is not an endpoint here; POST /charge is`)));
        return;
      }
      if (method !== 'POST') {
        schedule(nowUs, () => settle(errorResponse(405, '/charge takes POST')));
        return;
      }
      const headers = new Headers(init.headers ?? input?.headers ?? {});
      const body = init.body;
      const bodyText = body === undefined || body === null ? '' : typeof body === 'string' ? body : null;
      if (bodyText === null) {
        schedule(nowUs, () => settle(errorResponse(400, 'the sandbox takes a charge body as a string (JSON.stringify it)')));
        return;
      }
      const contentType = headers.get('content-type') ?? (typeof body === 'string' ? 'text/plain;charset=UTF-8' : null);
      const key = headers.get('idempotency-key');
      let customer = 0;
      try {
        customer = Number(JSON.parse(bodyText)?.id) || 0;
      } catch {
        customer = 0;
      }
      let sent;
      try {
        sent = sandbox.send(nowUs, contentType, bodyText, key);
      } catch (error) {
        stop({ kind: 'refused', message: String(error?.message ?? error) });
        return;
      }
      const [kind, req, status, dueUs] = sent;
      request = req;
      const answer = (code, charged) => {
        if (answered) return;
        sandbox.delivered(nowUs, request, code);
        const headerList = sandbox.headers(nowUs, code);
        const pairs = [['content-type', 'application/json']];
        for (let i = 0; i < headerList.length; i += 2) pairs.push([headerList[i], headerList[i + 1]]);
        settle(new Response(sandbox.answer_body(customer, code, charged), { status: code, headers: pairs }));
      };
      if (kind === 0) {
        const said = sandbox.door_said();
        schedule(nowUs, () => settle(errorResponse(status, said)));
        return;
      }
      if (kind === 1) {
        schedule(nowUs, () => answer(status, false));
      } else {
        schedule(dueUs, () => {
          const [code, charged] = sandbox.complete(nowUs, request);
          answer(code, charged === 1);
        });
      }
      signal?.addEventListener('abort', () => {
        if (answered) return;
        answered = true;
        sandbox.abandoned(nowUs, request);
        reject(signal.reason);
      }, { once: true });
    });
  };
  // Nothing else reaches out.
  for (const name of ['XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'Worker', 'SharedWorker']) {
    try {
      self[name] = undefined;
    } catch {
      // Some names cannot be reassigned; the frame's Content-Security-Policy blocks them.
    }
  }

  self.addEventListener('unhandledrejection', (event) => {
    event.preventDefault();
    noteError('unhandled rejection', event.reason);
  });

  // Lets every pending promise job run: a message to ourselves is a task, and a task
  // runs only once the microtask queue is empty.
  let wake = null;
  channel.port2.onmessage = () => wake?.();
  const settleJobs = () => new Promise((resolve) => {
    wake = resolve;
    channel.port1.postMessage(0);
  });

  async function run({ query, wasm, prelude }, userMain) {
    preludeLines = prelude;
    const startedMs = realPerformanceNow();
    wasm_bindgen.initSync({ module: wasm });
    try {
      sandbox = new wasm_bindgen.Sandbox(query);
    } catch (error) {
      realPost({ type: 'failed', report: { kind: 'refused', message: String(error?.message ?? error) } });
      return;
    }
    let client;
    try {
      client = userMain();
    } catch (error) {
      noteError('exception', error);
    }
    const charge = client?.charge;
    if (typeof charge !== 'function') {
      realPost({ type: 'failed', report: { kind: 'no-charge' }, errors });
      return;
    }
    const customers = sandbox.customers();
    const settled = new Uint8Array(customers + 1);
    let settledCount = 0;
    const settle = (c) => {
      if (settled[c]) return;
      settled[c] = 1;
      settledCount++;
      sandbox.settled(nowUs, c);
    };
    // Customers who arrive at the same instant start in one event, in id order.
    let c = 1;
    while (c <= customers) {
      const at = sandbox.arrival_us(c);
      const first = c;
      while (c <= customers && sandbox.arrival_us(c) === at) c++;
      const last = c - 1;
      schedule(at, () => {
        for (let id = first; id <= last; id++) {
          let done;
          try {
            done = Promise.resolve(charge(id, { baseUrl: BASE_URL }));
          } catch (error) {
            done = Promise.reject(error);
          }
          done.then(() => settle(id), (error) => {
            noteError('charge rejected', error);
            settle(id);
          });
        }
      });
    }
    let events = 0;
    let lastProgressMs = startedMs;
    for (;;) {
      await settleJobs();
      if (stopped) break;
      let e;
      do e = heap.length > 0 ? pop() : null;
      while (e?.cancelled);
      if (!e) break;
      if (e.t > MAX_RUN_US) {
        stop({ kind: 'day' });
        break;
      }
      nowUs = Math.max(nowUs, e.t);
      e.fn();
      events++;
      if (events >= MAX_EVENTS_RUN) {
        stop({ kind: 'events-run', n: MAX_EVENTS_RUN });
        break;
      }
      if ((events & 255) === 0 && realPerformanceNow() - lastProgressMs > 100) {
        lastProgressMs = realPerformanceNow();
        realPost({ type: 'progress', settled: settledCount, customers, nowUs, events });
      }
    }
    // A rejection nobody handled is told in a task of its own, after the jobs: let it come.
    await new Promise((resolve) => realSetTimeout(resolve, 0));
    await settleJobs();
    const ops = sandbox.ops();
    const keyLengths = sandbox.key_lengths();
    realPost({
      type: 'done',
      results: JSON.parse(sandbox.results()),
      ops,
      keyText: sandbox.key_text(),
      keyLengths,
      unfinished: customers - settledCount,
      stopped,
      errors,
      log,
      logDropped,
      events,
      nowUs,
      wallMs: realPerformanceNow() - startedMs,
    }, [ops.buffer, keyLengths.buffer]);
  }
  return { run, realPost };
})();
