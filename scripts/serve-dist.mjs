// Serves a built dist/ with gzip, as a static host would: for a classroom, where 30
// laptops share one Wi-Fi and `trunk serve` would send every module uncompressed.
//
//   node scripts/serve-dist.mjs [--host 0.0.0.0] [--port 8080] [--dist dist]
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, serveGzip } from './gzip-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = arg('--host', '127.0.0.1');
const PORT = Number(arg('--port', '8080'));
const DIST = path.resolve(arg('--dist', path.join(ROOT, 'dist')));

await serveGzip(DIST, { host: HOST, port: PORT });
console.log(`serving ${DIST} with gzip`);
const addresses =
  HOST === '0.0.0.0'
    ? Object.values(os.networkInterfaces())
        .flat()
        .filter((a) => a && a.family === 'IPv4' && !a.internal)
        .map((a) => a.address)
    : [HOST];
for (const a of addresses) console.log(`  open http://${a}:${PORT}/`);
