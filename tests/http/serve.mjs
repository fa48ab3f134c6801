// Starts `ratelab serve` on a free port for a test, and stops it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RATELAB = process.env.RATELAB_BIN ?? path.join(ROOT, 'target', 'release', 'ratelab');

/** `ratelab serve --port 0 …args`; resolves with its base URL once it listens. */
export function startServe(args) {
  const child = spawn(RATELAB, ['serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ratelab serve did not start within 10 s\n${out}\n${err}`));
    }, 10_000);
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/[0-9.:]+)/);
      if (m) {
        clearTimeout(timer);
        resolve({
          base: m[1],
          pid: child.pid,
          /** What it has written to its standard error so far. */
          stderr: () => err,
          stop: () => new Promise((done) => {
            child.once('exit', () => done(out));
            child.kill('SIGTERM');
          }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`ratelab serve exited with ${code}\n${out}\n${err}`));
    });
  });
}
