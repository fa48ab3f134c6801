// The lab's simulation worker: a Web Worker that runs the core (the module
// rate-limit-lab-sim, built for speed) off the page's thread. The page hands it a job and
// it answers with the job's results, or a sentence saying why it could not:
//   { id, job } → { id, done, total, nowUs } … (a run computed whole only) then
//   { id, answer, memory } | { id, error }
// `job` and `answer` are BigUint64Arrays that only the page layer's typed message writes
// and reads (crates/page/src/shared/worker_message.rs: a slice of a seed or parameter
// sweep or of the matrix, or a run computed whole); `memory` is the worker's memory in
// bytes after the job, the most it held. A page cancels by terminating the worker. It
// loads the module from next to this file, as the loader does.
import init, { work, memory_bytes } from './rate-limit-lab-sim.js';

const ready = init({ module_or_path: new URL('./rate-limit-lab-sim_bg.wasm', import.meta.url) });

self.onmessage = async ({ data }) => {
  const { id } = data;
  try {
    await ready;
    const answer = work(data.job, (done, total, nowUs) => self.postMessage({ id, done, total, nowUs }));
    self.postMessage({ id, answer, memory: memory_bytes() }, [answer.buffer]);
  } catch (error) {
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
};
