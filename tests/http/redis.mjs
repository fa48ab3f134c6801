// Starts Debian's `redis-server` on a free port for a test (no snapshot, no append-only
// file), talks to it with `redis-cli`, and stops it. scripts/setup.sh installs both.
import { spawn, execFile } from 'node:child_process';
import net from 'node:net';

/** A port no one listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** `redis-server --port PORT --save '' --appendonly no …extra`; resolves once it accepts. */
export async function startRedis({ port, extra = [] } = {}) {
  port ??= await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start within 10 s\n${out}`));
    }, 10_000);
    const seen = (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`redis-server could not start (scripts/setup.sh installs it): ${e.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}\n${out}`));
    });
  });
  const url = `redis://127.0.0.1:${port}`;
  return {
    port,
    url,
    pid: child.pid,
    /** `redis-cli -p PORT …args`, its output trimmed. */
    cli: (...args) => redisCli(port, args),
    stop: () => new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    }),
  };
}

/** `redis-cli -p PORT …args` (a last argument of `{ input }` goes to its standard input). */
export function redisCli(port, args) {
  let input;
  if (typeof args.at(-1) === 'object') input = args.pop().input;
  return new Promise((resolve, reject) => {
    const child = execFile('redis-cli', ['-p', String(port), ...args.map(String)], { maxBuffer: 64 << 20 },
      (e, stdout, stderr) => (e ? reject(new Error(`redis-cli ${args.join(' ')}: ${e.message}\n${stderr}`)) : resolve(stdout.trim())));
    if (input !== undefined) child.stdin.end(input);
  });
}

/** Every key in the Redis on `port`, with its remaining time to live in ms (PTTL). */
export async function keysWithTtl(port) {
  const keys = (await redisCli(port, ['--scan'])).split('\n').filter(Boolean);
  if (keys.length === 0) return [];
  // One redis-cli for every PTTL (commands on its standard input, one a line).
  const input = keys.map((k) => `PTTL ${JSON.stringify(k)}\n`).join('');
  const ttls = (await redisCli(port, [{ input }])).split('\n');
  return keys.map((k, i) => [k, Number(ttls[i])]);
}

/** `INFO commandstats` as { command: calls }. */
export async function commandCalls(port) {
  const calls = {};
  for (const line of (await redisCli(port, ['info', 'commandstats'])).split('\n')) {
    const m = line.match(/^cmdstat_([a-z|]+):calls=(\d+)/);
    if (m) calls[m[1]] = Number(m[2]);
  }
  return calls;
}
