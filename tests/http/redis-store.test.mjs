// `ratelab serve --store redis://…`: several servers holding one limit in a real Redis
// (Debian's redis-server, started by each test on a free port and stopped after it).
//
// - Three servers behind this file's own round robin meet the second article's schedules
//   (the boundary burst, the noisy neighbour) with the same figures as one server with
//   its state in memory, run here on the same schedules; and that one server's figures
//   are the article's (the fixed window's 20, the bucket's 11, the neighbour's 0 and 3).
//   A schedule over real HTTP holds only if its requests are answered inside the
//   windows the article's figures depend on (below); a run whose answers strayed out of
//   them (a busy machine) is run again, eight times at most (TRIES).
// - The read-then-write mode lets three servers admit more than the limit to concurrent
//   callers; the atomic mode never does.
// - Every key carries a TTL; Redis stopped and started again mid-run; a "Redis" that
//   answers nonsense or nothing; a Redis that is full; bad flags.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { startServe, RATELAB } from './serve.mjs';
import { startRedis, keysWithTtl, freePort } from './redis.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits up to 2 s for `server`'s standard error to match `pattern` (its pipe may be
 * read after the answer that followed the line). */
async function logged(server, pattern) {
  for (let i = 0; i < 40 && !pattern.test(server.stderr()); i++) await sleep(50);
  return server.stderr();
}
const sleepUntil = (t) => sleep(Math.max(0, t - Date.now()));

/** GET `path` as caller `key`: the status, and the time it was answered. */
async function ask(base, path, key) {
  const res = await fetch(base + path, { headers: { 'x-api-key': key } });
  const body = await res.text();
  return { status: res.status, at: Date.now(), body, headers: res.headers };
}

/** `n` requests at once, the i-th to `bases[(start + i) % bases.length]`. */
function volley(bases, start, n, path, key) {
  return Promise.all(
    Array.from({ length: n }, (_, i) => ask(bases[(start + i) % bases.length], path, key)),
  );
}

const admitted = (answers) => answers.filter((a) => a.status === 200).length;

function assertOnlyDecisions(answers, what) {
  const other = answers.filter((a) => a.status !== 200 && a.status !== 429);
  assert.equal(other.length, 0, `${what}: ${other.map((a) => `${a.status} ${a.body}`).join('; ')}`);
}

/** Opens as many kept-alive connections to each server as a volley of 40 needs there,
 * so the volley meets no connection set-up. */
async function warm(bases) {
  const each = Math.ceil(40 / bases.length);
  await Promise.all(bases.flatMap((b) => Array.from({ length: each }, () => fetch(`${b}/stats`).then((r) => r.text()))));
}

// The boundary burst (the article's script): 10 requests 150 ms before a whole second of
// the wall clock, where the servers' windows turn, and 10 more 170 ms later. It holds if
// each volley is answered within 25 ms of being sent: the first then lies wholly before
// the boundary, and the bucket's second token (30 ms after the second volley leaves)
// has not come.
const SPREAD_MS = 25;

/** How many times a schedule is run before a machine is called too busy for it. */
const TRIES = 8;

async function burst(bases, path) {
  const key = `burst-${path.slice(1)}-${Date.now()}-${Math.random()}`;
  for (let attempt = 0; attempt < TRIES; attempt++) {
    await warm(bases);
    let boundary = Math.ceil(Date.now() / 1000) * 1000;
    if (boundary - Date.now() < 400) boundary += 1000;
    await sleepUntil(boundary - 150);
    const t1 = Date.now();
    const first = await volley(bases, 0, 10, path, `${key}-${attempt}`);
    await sleepUntil(boundary + 20);
    const t2 = Date.now();
    const second = await volley(bases, 10, 10, path, `${key}-${attempt}`);
    assertOnlyDecisions([...first, ...second], path);
    const held = Math.max(...first.map((a) => a.at)) - t1 <= SPREAD_MS
      && t1 + SPREAD_MS < boundary
      && Math.max(...second.map((a) => a.at)) - t2 <= SPREAD_MS;
    if (held) return admitted(first) + admitted(second);
  }
  assert.fail(`${path}: the burst's volleys never landed inside their windows in ${TRIES} tries (a busy machine)`);
}

// The noisy neighbour: acme sends 40, then bakery 3, then clinic 3, against one bucket
// for everyone (/global) or one each (/bucket). It holds if it is over within 90 ms:
// the buckets (10 a second) refill no whole token meanwhile.
async function neighbour(bases, path) {
  for (let attempt = 0; attempt < TRIES; attempt++) {
    const reset = await fetch(`${bases[0]}/reset`, { method: 'POST' });
    assert.equal(reset.status, 200, await reset.text());
    await warm(bases);
    const t0 = Date.now();
    const ok = {};
    let sent = 0;
    for (const [caller, n] of [['acme', 40], ['bakery', 3], ['clinic', 3]]) {
      const answers = await volley(bases, sent, n, path, caller);
      assertOnlyDecisions(answers, `${path} ${caller}`);
      ok[caller] = admitted(answers);
      sent += n;
    }
    if (Date.now() - t0 < 90) return ok;
  }
  assert.fail(`${path}: the neighbour's requests never fitted in 90 ms in ${TRIES} tries (a busy machine)`);
}

let redis;
let one;
let fleet = [];
let racy = [];
before(async () => {
  redis = await startRedis();
  one = await startServe([]);
  fleet = await Promise.all([1, 2, 3].map(() => startServe(['--store', redis.url])));
  racy = await Promise.all(
    [1, 2, 3].map(() => startServe(['--store', redis.url, '--store-mode', 'read-then-write'])),
  );
});
after(async () => {
  await Promise.all([one, ...fleet, ...racy].map((s) => s?.stop()));
  await redis?.stop();
});

test("three servers sharing Redis meet the article's burst as one server does", async () => {
  const bases = fleet.map((s) => s.base);
  const figures = {};
  for (const path of ['/fixed', '/sliding', '/bucket', '/gcra', '/counter']) {
    const alone = await burst([one.base], path);
    const together = await burst(bases, path);
    figures[path] = [alone, together];
    assert.equal(together, alone, `${path}: three servers admitted ${together}, one server ${alone}`);
  }
  // The article's own figures, from the one server.
  assert.equal(figures['/fixed'][0], 20, JSON.stringify(figures));
  assert.equal(figures['/sliding'][0], 10, JSON.stringify(figures));
  assert.equal(figures['/bucket'][0], 11, JSON.stringify(figures));
});

test("three servers sharing Redis meet the article's noisy neighbour as one server does", async () => {
  const bases = fleet.map((s) => s.base);
  for (const path of ['/global', '/bucket']) {
    const alone = await neighbour([one.base], path);
    const together = await neighbour(bases, path);
    assert.deepEqual(together, alone, path);
  }
  const global = await neighbour([one.base], '/global');
  const each = await neighbour([one.base], '/bucket');
  // The article: behind one bucket the quiet callers lose everything; with one each, nothing.
  assert.deepEqual([global.bakery, global.clinic, each.bakery, each.clinic], [0, 0, 3, 3]);
  assert.equal(global.acme, 10);
});

test('read-then-write lets concurrent callers through over the limit; atomic never', async () => {
  // The sliding log admits at most 10 in any second, wherever the second starts: 30 at
  // once, answered within a second, must find exactly 10 admitted by a store that holds.
  const race = async (servers, i) => {
    const bases = servers.map((s) => s.base);
    await warm(bases);
    const t0 = Date.now();
    const answers = await volley(bases, 0, 30, '/sliding', `race-${i}-${Date.now()}`);
    assertOnlyDecisions(answers, 'race');
    return Date.now() - t0 < 1000 ? admitted(answers) : null;
  };
  const atomic = [];
  for (let i = 0; i < 10; i++) {
    const n = await race(fleet, i);
    if (n !== null) atomic.push(n);
  }
  assert.ok(atomic.length >= 5, `only ${atomic.length} of 10 tries answered within a second`);
  assert.deepEqual(atomic, atomic.map(() => 10), `atomic admitted ${atomic}`);
  let over = null;
  const seen = [];
  for (let i = 0; i < 20 && over === null; i++) {
    const n = await race(racy, i);
    seen.push(n);
    if (n !== null && n > 10) over = n;
  }
  assert.ok(over !== null, `read-then-write never admitted more than 10 in 20 tries: ${seen}`);
});

test('every limiter decides in Redis in both modes, and every key carries a TTL', async () => {
  const paths = ['/fixed', '/sliding', '/bucket', '/counter', '/queue', '/nodelay', '/gcra', '/inflight', '/global'];
  let seen = 0;
  for (const [mode, servers] of [['atomic', fleet], ['read-then-write', racy]]) {
    for (const path of paths) {
      const caller = `ttl-${mode}`;
      const answers = [];
      // One at a time, so the read-then-write mode meets no race here.
      for (let i = 0; i < 12; i++) answers.push(await ask(servers[i % 3].base, path, caller));
      assertOnlyDecisions(answers, path);
      assert.ok(admitted(answers) >= 10, `${path}: ${answers.map((a) => a.status)}`);
      const last = answers.at(-1);
      if (last.status === 429) assert.match(last.headers.get('retry-after') ?? '', /^\d+$/);
      // The key this limiter just wrote is there, with a TTL (they live a second or two;
      // /inflight's only as long as a request holds its slot, 15 ms, gone before a look).
      const kind = path === '/global' ? 'bucket' : path.slice(1);
      const mine = path === '/global' ? `ratelab:${kind}:10:1000000:global` : `ratelab:${kind}:10:1000000:key:${caller}`;
      if (path !== '/inflight') {
        const ttl = Number(await redis.cli('pttl', mine));
        assert.ok(ttl > 0, `${mode} ${path}: ${mine} has PTTL ${ttl}`);
      }
      const keys = await keysWithTtl(redis.port);
      for (const [key, ttl] of keys) {
        assert.ok(key.startsWith('ratelab:'), key);
        // -2: gone between the scan and PTTL; 0: expiring within the millisecond of the
        // look (an earlier test's key, at the end of its life); -1 would be a key kept
        // for ever.
        assert.ok(ttl === -2 || (ttl >= 0 && ttl <= 2_001), `${key}: PTTL ${ttl}`);
      }
      seen += keys.length;
    }
  }
  assert.ok(seen >= 16, `${seen} keys seen`);
});

/** The server's resident memory in kB. */
function rssKb(pid) {
  return Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);
}

/** `n` requests, `width` at a time. */
async function hammer(base, path, n, width) {
  const statuses = {};
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) {
      next += 1;
      const a = await ask(base, path, `hammer-${next % 50}`);
      statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    }
  }));
  return statuses;
}

test('Redis stopped and started again: 503s with a sentence, one line each way, back in service', async () => {
  const port = await freePort();
  let own = await startRedis({ port });
  const closed = await startServe(['--store', own.url]);
  const open = await startServe(['--store', own.url, '--store-fail', 'open']);
  try {
    assert.equal((await ask(closed.base, '/fixed', 'a')).status, 200);
    assert.equal((await ask(open.base, '/fixed', 'a')).status, 200);
    await own.stop();
    const t0 = Date.now();
    const down = await ask(closed.base, '/fixed', 'a');
    assert.ok(Date.now() - t0 < 3_000, `answered after ${Date.now() - t0} ms`);
    assert.equal(down.status, 503, down.body);
    assert.match(JSON.parse(down.body).error, /^the limiters' store at redis:\/\/127\.0\.0\.1:\d+ cannot be reached .*refuses rather than admit without a limit \(--store-fail closed\)$/);
    assert.equal(down.headers.get('retry-after'), '1');
    const ajar = await ask(open.base, '/fixed', 'a');
    assert.equal(ajar.status, 200, ajar.body);
    assert.match(ajar.headers.get('ratelab-store'), /admitted without a limit/);
    // Many requests while it is gone: no growth, one line.
    const first = await hammer(closed.base, '/bucket', 500, 20);
    const rss = rssKb(closed.pid);
    const second = await hammer(closed.base, '/bucket', 1000, 20);
    assert.deepEqual(Object.keys(first), ['503'], JSON.stringify(first));
    assert.deepEqual(Object.keys(second), ['503'], JSON.stringify(second));
    assert.ok(rssKb(closed.pid) < rss + 8_192, `resident memory ${rss} kB → ${rssKb(closed.pid)} kB`);
    const lost = (s) => s.stderr().split('\n').filter((l) => /store at .* cannot be reached/.test(l));
    await logged(open, /cannot be reached/);
    assert.equal(lost(closed).length, 1, closed.stderr());
    assert.equal(lost(open).length, 1, open.stderr());
    // Back: within a few seconds of Redis returning, decisions are made there again.
    own = await startRedis({ port });
    const back = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - back < 10_000) {
      status = (await ask(closed.base, '/fixed', `back-${Date.now()}`)).status;
      if (status !== 200) await sleep(100);
    }
    assert.equal(status, 200, 'back in service within 10 s');
    await logged(closed, /store at .* decides again$/m);
    const returned = closed.stderr().split('\n').filter((l) => /store at .* decides again$/.test(l));
    assert.equal(returned.length, 1, closed.stderr());
    assert.equal(lost(closed).length, 1, closed.stderr());
    // The scripts were loaded again (a restarted Redis has none) and every key has a TTL.
    for (const [key, ttl] of await keysWithTtl(port)) assert.notEqual(ttl, -1, key);
  } finally {
    await Promise.all([closed.stop(), open.stop()]);
    await own.stop();
  }
});

/** A TCP server on a free port that answers each chunk with `reply` (or never, if null). */
async function fakeRedis(reply) {
  const sockets = new Set();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
    s.on('data', () => {
      if (reply !== null) s.write(reply);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `redis://127.0.0.1:${server.address().port}`,
    stop: () => new Promise((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}

test('a "Redis" that answers nonsense, or nothing, gets a 503 with a sentence, not a panic', async () => {
  for (const [what, reply] of [
    ['nonsense', 'HTTP/1.1 400 Bad Request\r\n\r\n'],
    ['a wrong type', ':42\r\n'],
    ['silence', null],
  ]) {
    const fake = await fakeRedis(reply);
    for (const mode of ['atomic', 'read-then-write']) {
      const s = await startServe(['--store', fake.url, '--store-mode', mode]);
      try {
        for (let i = 0; i < 3; i++) {
          const t0 = Date.now();
          const a = await ask(s.base, '/fixed', 'a');
          assert.ok(Date.now() - t0 < 3_000, `${what}: answered after ${Date.now() - t0} ms`);
          assert.equal(a.status, 503, `${what} ${mode}: ${a.body}`);
          assert.match(JSON.parse(a.body).error, /^the limiters' store at .* (cannot be reached|answered something that is not a limiter's state|refused the decision) \(.+\); this server refuses/);
        }
        assert.equal((await fetch(`${s.base}/stats`)).status, 200, `${what}: the server still answers`);
      } finally {
        await s.stop();
      }
    }
    await fake.stop();
  }
});

test('a full Redis (maxmemory, noeviction) gets a 503 that says so', async () => {
  const full = await startRedis();
  try {
    await full.cli('-x', 'set', 'filler', { input: 'x'.repeat(4 << 20) });
    await full.cli('config', 'set', 'maxmemory-policy', 'noeviction');
    await full.cli('config', 'set', 'maxmemory', '1mb');
    for (const mode of ['atomic', 'read-then-write']) {
      const s = await startServe(['--store', full.url, '--store-mode', mode]);
      try {
        const a = await ask(s.base, '/gcra', 'a');
        assert.equal(a.status, 503, a.body);
        assert.match(JSON.parse(a.body).error, /store at .* is full and refuses to store more \(.*OOM.*\)/);
        assert.match(await logged(s, /is full and refuses to store more/), /is full and refuses to store more/);
      } finally {
        await s.stop();
      }
    }
  } finally {
    await full.stop();
  }
});

test('bad store flags get a sentence and exit code 2, and --help states the choices', () => {
  const serve = (...args) => spawnSync(RATELAB, ['serve', '--port', '0', ...args], { encoding: 'utf8', timeout: 10_000 });
  for (const [args, says] of [
    [['--store', 'http://127.0.0.1:6379'], '--store takes memory or a Redis address such as redis://127.0.0.1:6379, not http://127.0.0.1:6379'],
    [['--store', 'redis://127.0.0.1:99999'], 'the port in redis://127.0.0.1:99999 must be a number from 1 to 65535'],
    [['--store', 'redis://'], 'names no host'],
    [['--store', 'redis://127.0.0.1:6379', '--store-mode', 'racy'], '--store-mode is atomic or read-then-write, not racy'],
    [['--store', 'redis://127.0.0.1:6379', '--store-fail', 'ajar'], '--store-fail is closed or open, not ajar'],
    [['--store-fail', 'open'], '--store-fail is for a store in Redis: give --store redis://HOST:PORT too'],
  ]) {
    const r = serve(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.ok(r.stderr.includes(says), `${args.join(' ')}: ${r.stderr}`);
    assert.ok(!/panick/.test(r.stderr), r.stderr);
  }
  const help = spawnSync(RATELAB, ['serve', '--help'], { encoding: 'utf8' }).stdout;
  assert.match(help, /--store-fail <closed\|open>/);
  assert.match(help, /closed \(the default\) answers 503/);
  assert.match(help, /open admits the request without a limit/);
  assert.match(help, /--store-mode <atomic\|read-then-write>/);
});
