// The lab's simulation worker: a Web Worker that runs the core (the module
// rate-limit-lab-sim, built for speed) off the page's thread. The page hands it work and
// it answers with the results, flat, or a sentence saying why it could not:
//   { id, kind: 'sweep' | 'psweep' | 'matrix', query, from, to } → { id, values } | { id, error }
//     (a slice of the runs of the seed or parameter sweep, or the matrix, its page's query names:
//     crates/page/src/sweep/share.rs);
//   { id, kind: 'run', query } → { id, done, total, nowUs } … then { id, values, memory } | { id, error }
//     (one run computed whole, with progress on the way: crates/page/src/run/whole.rs;
//     `memory` is the worker's memory in bytes after it, the most it held).
// A page cancels by terminating the worker. It loads the module from next to this file,
// as the loader does.
import init, { sweep_share, run, memory_bytes } from './rate-limit-lab-sim.js';

const ready = init({ module_or_path: new URL('./rate-limit-lab-sim_bg.wasm', import.meta.url) });

self.onmessage = async ({ data }) => {
  const { id } = data;
  try {
    await ready;
    let values;
    if (data.kind === 'run') {
      values = run(data.query, (done, total, nowUs) => self.postMessage({ id, done, total, nowUs }));
    } else {
      values = sweep_share(String(data.kind), data.query, BigInt(data.from), BigInt(data.to));
    }
    self.postMessage({ id, values, memory: memory_bytes() }, [values.buffer]);
  } catch (error) {
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
};
