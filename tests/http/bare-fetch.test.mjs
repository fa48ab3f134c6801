// The source article's first client, "the obvious way", against `ratelab serve`: every
// charge at once through a bare `fetch`, a JSON string as the body and no headers. Such a
// `fetch` sends the string as `text/plain;charset=UTF-8`; the provider reads it as JSON,
// as many real APIs do, so the client meets the storm of refusals the article shows,
// not a wall of 415s.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startServe } from './serve.mjs';

let serve;
before(async () => {
  serve = await startServe([]);
});
after(async () => {
  await serve?.stop();
});

/** What a bare `fetch` with a string body sends, as a plain Node server receives it. */
async function bareFetchHeaders() {
  const seen = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers['content-type']);
    res.end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/charge`;
  await fetch(url, { method: 'POST', body: JSON.stringify({ id: 1, amount: 1000 }) });
  await new Promise((resolve) => server.close(resolve));
  return seen;
}

test('a bare fetch sends its JSON string as text/plain', async () => {
  assert.deepEqual(await bareFetchHeaders(), ['text/plain;charset=UTF-8']);
});

test("the article's obvious client gets the storm of 429s and 503s, and no 415", async () => {
  const baseUrl = serve.base;
  const ids = Array.from({ length: 1000 }, (_, i) => i + 1);
  // The article's first client, as a reader assembles it into a script.
  const results = await Promise.all(
    ids.map((id) => fetch(`${baseUrl}/charge`, {
      method: 'POST',
      body: JSON.stringify({ id, amount: 1000 }),
    })),
  );
  const count = {};
  for (const res of results) {
    count[res.status] = (count[res.status] ?? 0) + 1;
    await res.arrayBuffer();
  }
  assert.equal(count[415] ?? 0, 0, JSON.stringify(count));
  // Ten in flight and a hundred a second: nearly everything is turned away at once.
  assert.ok((count[429] ?? 0) >= 800, JSON.stringify(count));
  assert.ok((count[503] ?? 0) >= 10, JSON.stringify(count));
  assert.ok((count[200] ?? 0) >= 1, JSON.stringify(count));
  const stats = await (await fetch(`${baseUrl}/stats`)).json();
  assert.equal(stats.requests, 1000, 'every request reached the provider');
});
