// `ratelab serve --dist <dir>` on a free port of this machine, for the benchmarks and the
// browser tests that need the app served as a static host serves it (the build's .gz to
// a browser that accepts gzip): the same server a classroom runs (scripts/serve.sh
// --lan --gzip). Needs the release CLI (cargo build --release --bin ratelab).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RATELAB = process.env.RATELAB_BIN ?? path.join(ROOT, 'target', 'release', 'ratelab');

/** The value after `name` on the command line, or `fallback`. */
export function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}

/** Serves `dir` with `ratelab serve --dist`; `extra` maps a file name to its contents for
 * pages that are not part of the build (the benchmark's plain page): the build is then
 * copied to a temporary folder with them beside it. Resolves to { base, close }. */
export async function serveDist(dir, { extra = {} } = {}) {
  if (!fs.existsSync(RATELAB)) throw new Error(`${RATELAB} is missing: cargo build --release --bin ratelab`);
  let root = dir;
  let scratch = null;
  if (Object.keys(extra).length > 0) {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'rll-dist-'));
    fs.cpSync(dir, scratch, { recursive: true });
    for (const [name, body] of Object.entries(extra)) fs.writeFileSync(path.join(scratch, name), body);
    root = scratch;
  }
  const child = spawn(RATELAB, ['serve', '--dist', root, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on (http:\/\/[\d.:]+)/);
      if (m) resolve(`${m[1]}/`);
    });
    child.on('exit', (code) => reject(new Error(`ratelab serve exited with ${code} before listening:\n${out}`)));
  });
  // A script that stops on an error must not leave the server running (it would also
  // hold the script's output open for whatever reads it).
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  const close = () =>
    new Promise((resolve) => {
      process.removeListener('exit', orphaned);
      child.once('exit', () => {
        if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
        resolve();
      });
      child.kill('SIGTERM');
    });
  return { base, close };
}
