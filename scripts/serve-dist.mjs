// Serves a built dist/ with gzip, as a static host would: for a classroom, where 30
// laptops share one Wi-Fi and `trunk serve` would send every module uncompressed.
//
//   node scripts/serve-dist.mjs [--host 0.0.0.0] [--port 8080] [--dist dist]
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const HOST = arg('--host', '127.0.0.1');
const PORT = Number(arg('--port', '8080'));
const DIST = path.resolve(arg('--dist', path.join(ROOT, 'dist')));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.rs': 'text/plain; charset=utf-8',
};

const gzipped = new Map();
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const rel = decodeURIComponent(url.pathname.slice(1)) || 'index.html';
  const file = path.join(DIST, rel);
  if (!file.startsWith(DIST) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    res.writeHead(404).end('not found');
    return;
  }
  if (!gzipped.has(file)) gzipped.set(file, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
  const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  res.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip', vary: 'accept-encoding' });
  res.end(gzipped.get(file));
});

server.listen(PORT, HOST, () => {
  console.log(`serving ${DIST} with gzip`);
  const addresses =
    HOST === '0.0.0.0'
      ? Object.values(os.networkInterfaces())
          .flat()
          .filter((a) => a && a.family === 'IPv4' && !a.internal)
          .map((a) => a.address)
      : [HOST];
  for (const a of addresses) console.log(`  open http://${a}:${PORT}/`);
});
