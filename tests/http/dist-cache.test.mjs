// `ratelab serve --dist`: every file of the built app is asked for again on each visit
// (`Cache-Control: no-cache`, as its names never change), and a file the browser already
// has comes back as a 304 with no body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServe } from './serve.mjs';

test('the app\'s files are revalidated on each visit, and an unchanged one costs no body', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rll-dist-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><p>lab</p>');
  fs.writeFileSync(path.join(dir, 'loader.js'), 'export {};\n');
  const server = await startServe(['--dist', dir]);
  try {
    for (const file of ['', 'index.html', 'loader.js']) {
      const first = await fetch(`${server.base}/${file}`);
      assert.equal(first.status, 200, file);
      assert.equal(first.headers.get('cache-control'), 'no-cache', file);
      const modified = first.headers.get('last-modified');
      assert.ok(modified, `${file}: a Last-Modified to ask with`);
      await first.arrayBuffer();
      const again = await fetch(`${server.base}/${file}`, { headers: { 'if-modified-since': modified } });
      assert.equal(again.status, 304, file);
      assert.equal((await again.arrayBuffer()).byteLength, 0, file);
      assert.equal(again.headers.get('cache-control'), 'no-cache', file);
    }
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
