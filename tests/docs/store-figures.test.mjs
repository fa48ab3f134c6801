// docs/figures.md's "store" section is written by scripts/bench-store.mjs --write. Its
// speeds are this machine's on that day and are not checked here; its Redis calls per
// decision are the code's, so this counts them again (INFO commandstats around 200
// decisions in each mode) and holds the written figures to them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { FIGURES, rows } from '../../scripts/figures.mjs';
import { startServe } from '../http/serve.mjs';
import { startRedis, commandCalls } from '../http/redis.mjs';

/** The store section's rows: [store, …, sent per decision, ran per decision]. */
function written() {
  const text = fs.readFileSync(FIGURES, 'utf8');
  const start = text.indexOf('<!-- figures: store -->');
  assert.ok(start >= 0, 'docs/figures.md has its store section (node scripts/bench-store.mjs --write)');
  const section = text.slice(start, text.indexOf('<!-- /figures -->', start));
  return rows(section).filter((r) => r[0] !== 'store');
}

test('the calls per decision written in docs/figures.md are what the code makes', async () => {
  const table = written();
  assert.equal(table.length, 6, 'two tables of three stores');
  const redis = await startRedis();
  try {
    for (const [name, flags] of [
      ['Redis, atomic', []],
      ['Redis, read-then-write', ['--store-mode', 'read-then-write']],
    ]) {
      const s = await startServe(['--store', redis.url, ...flags]);
      try {
        await redis.cli('config', 'resetstat');
        for (let i = 0; i < 200; i++) {
          const res = await fetch(`${s.base}/bucket`, { headers: { 'x-api-key': `k${i % 100}` } });
          assert.ok([200, 429].includes(res.status), await res.text());
        }
        const calls = await commandCalls(redis.port);
        const count = (...names) => names.reduce((sum, c) => sum + (calls[c] ?? 0), 0);
        // As the script counts them: what the server sent, not what a script ran.
        const sent = flags.length ? count('get', 'set') : count('evalsha', 'eval', 'script|load');
        const ran = Object.entries(calls)
          .filter(([c]) => !c.startsWith('config') && c !== 'info')
          .reduce((sum, [, v]) => sum + v, 0);
        for (const row of table.filter((r) => r[0] === name)) {
          assert.equal(row.at(-2), `${(sent / 200).toFixed(2)} (${(sent / 200).toFixed(2)}–${(sent / 200).toFixed(2)})`, `${name}: sent`);
          assert.equal(row.at(-1), `${(ran / 200).toFixed(2)} (${(ran / 200).toFixed(2)}–${(ran / 200).toFixed(2)})`, `${name}: ran`);
        }
      } finally {
        await s.stop();
      }
    }
  } finally {
    await redis.stop();
  }
  for (const row of table.filter((r) => r[0] === 'memory')) assert.deepEqual(row.slice(-2), ['0', '0']);
});
