// scripts/fleet.sh: one command starts a Redis and a small fleet of `ratelab serve`
// sharing their limiters there, prints where each listens and which one the page's
// footer points at, and stops them all on SIGTERM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RATELAB } from './serve.mjs';
import { freePort } from './redis.mjs';

const FLEET = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'fleet.sh');
const env = { ...process.env, RATELAB_BIN: RATELAB };

const accepts = (port) => new Promise((resolve) => {
  const s = net.connect(port, '127.0.0.1');
  s.once('connect', () => { s.destroy(); resolve(true); });
  s.once('error', () => resolve(false));
});

test('the fleet holds one limit across its instances, and stops with its Redis', async () => {
  const redisPort = await freePort();
  const child = spawn(FLEET, ['--instances', '3', '--port', '0', '--redis-port', String(redisPort)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the fleet did not start within 20 s\n${out}\n${err}`)), 20_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ctrl-C stops the fleet')) { clearTimeout(timer); resolve(); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the fleet exited with ${code}\n${out}\n${err}`)); });
  });
  try {
    const bases = [...out.matchAll(/^instance \d+: (http:\/\/\S+)$/gm)].map((m) => m[1]);
    assert.equal(bases.length, 3, out);
    assert.match(out, new RegExp(`^Redis: redis://127\\.0\\.0\\.1:${redisPort} `, 'm'));
    assert.ok(out.includes(`The page's footer points at ${bases[0]}`), out);
    // The sliding log: at most 10 in any second, whichever instance is asked.
    const statuses = [];
    for (let i = 0; i < 15; i++) {
      const res = await fetch(`${bases[i % 3]}/sliding`, { headers: { 'x-api-key': 'class' } });
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [...Array(10).fill(200), ...Array(5).fill(429)]);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  assert.equal(await accepts(redisPort), false, 'the Redis stopped with the fleet');
});

test('the fleet refuses a bad size with a sentence', () => {
  const r = spawnSync(FLEET, ['--instances', '17'], { env, encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--instances takes 1 to 16, not '17'/);
});
