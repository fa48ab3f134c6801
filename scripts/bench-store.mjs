// Decisions per second and latency of `ratelab serve`'s limiters with their state in
// this process (`--store memory`) and in a Redis over loopback (`--store redis://…`,
// atomic and read-then-write), and how many Redis calls one decision costs. A
// measurement, not a test: it asserts nothing about speed (docs/http.md says what each
// figure covers). Each configuration is one `ratelab serve` (release build) answering
// GET /bucket for 100 callers (x-api-key k0…k99) to a keep-alive Node client on the same
// machine, first one request at a time (latency), then 32 at once (throughput); the
// configurations take turns, ROUNDS times, so a busy spell hits each. CPU per decision
// is read from /proc for the server and for redis-server. Redis's calls are counted by
// `INFO commandstats` (reset before each run): the commands the server sent (EVALSHA in
// the atomic mode, GET and SET in read-then-write), and every command Redis ran (those a
// script ran included).
//
//   node scripts/bench-store.mjs [--seconds 5] [--rounds 3] [--write]
//
// --write puts the figures in docs/figures.md (section store). RATELAB_BIN names the
// binary (default target/release/ratelab). Needs redis-server (scripts/setup.sh).
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import { startServe } from '../tests/http/serve.mjs';
import { startRedis, commandCalls } from '../tests/http/redis.mjs';
import { execFileSync } from 'node:child_process';
import { writeSection } from './figures.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 5);
const ROUNDS = arg('rounds', 3);
const WIDE = 32;
const CALLERS = 100;

/** CPU ticks (user + system, every thread) process `pid` has used so far. */
const ticks = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const HZ = 100; // Linux's USER_HZ, what /proc counts in

/** `connections` loops sending GET /bucket for `seconds` after a second of warming up
 * (`started` is awaited between the two, with nothing in flight): answers per status,
 * latencies. */
async function hammer(base, connections, seconds, started) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const url = `${base}/bucket`;
  const codes = {};
  const latencies = [];
  let n = 0;
  const once = () => new Promise((resolve) => {
    const t0 = performance.now();
    const req = http.get(url, { agent, headers: { 'x-api-key': `k${n++ % CALLERS}` } }, (res) => {
      res.resume();
      res.on('end', () => {
        latencies.push(performance.now() - t0);
        codes[res.statusCode] = (codes[res.statusCode] ?? 0) + 1;
        resolve();
      });
    });
    req.on('error', () => { codes.error = (codes.error ?? 0) + 1; resolve(); });
  });
  // A second of warming up: connections made, the code paths hot.
  const warmUntil = performance.now() + 1000;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < warmUntil) await once();
  }));
  for (const k of Object.keys(codes)) delete codes[k];
  latencies.length = 0;
  await started();
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < until) await once();
  }));
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  const decisions = (codes[200] ?? 0) + (codes[429] ?? 0);
  return { codes, decisions, perSecond: decisions / elapsed, p50: at(0.5), p99: at(0.99) };
}

const loadBefore = os.loadavg()[0];
const redis = await startRedis();
const configs = [
  ['memory', []],
  ['Redis, atomic', ['--store', redis.url]],
  ['Redis, read-then-write', ['--store', redis.url, '--store-mode', 'read-then-write']],
];
const servers = [];
for (const [, args] of configs) servers.push(await startServe(args));

/** results[phase][config] = runs */
const results = { 1: configs.map(() => []), [WIDE]: configs.map(() => []) };
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const connections of [1, WIDE]) {
      for (const [i, [name, args]] of configs.entries()) {
        const s = servers[i];
        let server0;
        let redis0;
        const r = await hammer(s.base, connections, SECONDS, async () => {
          await redis.cli('config', 'resetstat');
          [server0, redis0] = [ticks(s.pid), ticks(redis.pid)];
        });
        const [server1, redis1] = [ticks(s.pid), ticks(redis.pid)];
        const calls = await commandCalls(redis.port);
        const count = (...names) => names.reduce((sum, c) => sum + (calls[c] ?? 0), 0);
        const ran = Object.entries(calls)
          .filter(([c]) => !c.startsWith('config') && c !== 'info')
          .reduce((sum, [, v]) => sum + v, 0);
        const sent = args.includes('read-then-write') ? count('get', 'set') : count('evalsha', 'eval', 'script|load');
        r.serverCpuUs = ((server1 - server0) / HZ) * 1e6 / r.decisions;
        r.redisCpuUs = name === 'memory' ? null : ((redis1 - redis0) / HZ) * 1e6 / r.decisions;
        r.sent = name === 'memory' ? 0 : sent / r.decisions;
        r.ran = name === 'memory' ? 0 : ran / r.decisions;
        results[connections][i].push(r);
        const bad = Object.entries(r.codes).filter(([c]) => c !== '200' && c !== '429');
        console.log(`round ${round}, ${connections} at a time, ${name.padEnd(22)} ${Math.round(r.perSecond).toString().padStart(6)} decisions/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  server CPU ${r.serverCpuUs.toFixed(0)} µs${r.redisCpuUs === null ? '' : `  redis CPU ${r.redisCpuUs.toFixed(0)} µs`}  calls sent ${r.sent.toFixed(2)}, ran ${r.ran.toFixed(2)} per decision${bad.length ? `  OTHER ANSWERS ${JSON.stringify(bad)}` : ''}`);
      }
    }
  }
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await redis.stop();
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const span = (xs, show) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${show(median(s))} (${show(s[0])}–${show(s.at(-1))})`;
};
const int = (x) => Math.round(x).toLocaleString('en');
const ms = (x) => x.toFixed(2);
const table = (connections) => [
  '| store | decisions/s | p50 ms | p99 ms | server CPU µs per decision | redis-server CPU µs per decision | Redis calls sent per decision | commands Redis ran per decision |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...configs.map(([name], i) => {
    const runs = results[connections][i];
    const pick = (f) => runs.map(f);
    const redisCpu = name === 'memory' ? '—' : span(pick((r) => r.redisCpuUs), int);
    const calls = (f) => (name === 'memory' ? '0' : span(pick(f), (x) => x.toFixed(2)));
    return `| ${name} | ${span(pick((r) => r.perSecond), int)} | ${span(pick((r) => r.p50), ms)} | ${span(pick((r) => r.p99), ms)} | ${span(pick((r) => r.serverCpuUs), int)} | ${redisCpu} | ${calls((r) => r.sent)} | ${calls((r) => r.ran)} |`;
  }),
];
const lines = [
  `One request at a time (latency), ${SECONDS} s each:`,
  '',
  ...table(1),
  '',
  `${WIDE} at once (throughput), ${SECONDS} s each:`,
  '',
  ...table(WIDE),
];
console.log(`\n${lines.join('\n')}`);

if (process.argv.includes('--write')) {
  const cpus = os.cpus();
  const day = new Date().toISOString().slice(0, 10);
  const command = process.argv.slice(2).join(' ');
  writeSection(
    'store',
    [
      '## The limiters\' store: memory against Redis',
      '',
      `Written by \`node scripts/bench-store.mjs ${command}\` on ${day}, on a machine with`,
      `${cpus.length} logical CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), Redis ${execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).match(/v=(\S+)/)?.[1] ?? '?'} over loopback,`,
      `GET /bucket for ${CALLERS} callers, the client on the same cores, load average ${loadBefore.toFixed(1)} before and ${os.loadavg()[0].toFixed(1)} after`,
      `(other work shared the machine); each cell is the median of ${ROUNDS} runs`,
      '(lowest–highest). [http.md](http.md#several-servers-one-limit-redis) says what each figure covers.',
      '',
      ...lines,
    ].join('\n'),
  );
  console.log('wrote docs/figures.md, section store');
}
