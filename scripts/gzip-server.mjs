// A static server for dist/ that answers with gzip, as a static host would: shared by
// scripts/serve-dist.mjs (a classroom) and scripts/ready.mjs (the time-to-ready benchmark).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.rs': 'text/plain; charset=utf-8',
};

/** The value after `name` on the command line, or `fallback`. */
export function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}

/** The build's own `<file>.gz` (scripts/precompress.mjs), as a static host that serves
 * precompressed files sends it, if there is one and it gives back the file as it is now
 * (a file changed by hand after the build is compressed afresh instead). */
function precompressed(file, body) {
  const gz = file && `${file}.gz`;
  if (!gz || !fs.existsSync(gz)) return null;
  const bytes = fs.readFileSync(gz);
  return zlib.gunzipSync(bytes).equals(body) ? bytes : null;
}

/** Serves `dir` with gzip (each file's `.gz` from the build where there is one, else the
 * file compressed once, at level 9) on `host:port`; `extra` maps a path to [body, type]
 * for pages that are not files (the benchmark's plain page).
 * Resolves to the server once it listens. */
export function serveGzip(dir, { host = '127.0.0.1', port = 0, extra = {} } = {}) {
  const gzipped = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let body;
    let type;
    let file = null;
    if (extra[url.pathname]) {
      [body, type] = extra[url.pathname];
    } else {
      const rel = decodeURIComponent(url.pathname.slice(1)) || 'index.html';
      file = path.join(dir, rel);
      if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
        res.writeHead(404).end('not found');
        return;
      }
      body = fs.readFileSync(file);
      type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    }
    if (!gzipped.has(url.pathname)) gzipped.set(url.pathname, precompressed(file, body) ?? zlib.gzipSync(body, { level: 9 }));
    res.writeHead(200, {
      'content-type': type,
      'content-encoding': 'gzip',
      vary: 'accept-encoding',
      'cache-control': 'no-store',
    });
    res.end(gzipped.get(url.pathname));
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}
