// Gives a page of the lab `window.runClient(code, query)`: a fresh sandbox frame runs
// `code` on the run `query` names and answers with the frame's last message (`done` or
// `failed`), plus `pageMs`, the wall time from handing the frame the run to its answer.
// The sandbox's benchmark and its browser tests both drive the sandbox through it.

/** Installs `window.runClient` on `page`, which must be a page of the built lab. */
export async function installRunClient(page) {
  await page.evaluate(async () => {
    const [glue, harness, wasm] = await Promise.all([
      fetch('rate-limit-lab-sandbox.js').then((r) => r.text()),
      fetch('sandbox/harness.js').then((r) => r.text()),
      fetch('rate-limit-lab-sandbox_bg.wasm').then((r) => r.arrayBuffer()),
    ]);
    window.runClient = async (code, query) => {
      const frame = document.createElement('iframe');
      frame.setAttribute('sandbox', 'allow-scripts');
      frame.hidden = true;
      frame.src = 'sandbox/index.html';
      const ready = new Promise((resolve) => {
        const onMessage = (e) => {
          if (e.source === frame.contentWindow && e.data?.type === 'ready') {
            removeEventListener('message', onMessage);
            resolve();
          }
        };
        addEventListener('message', onMessage);
      });
      document.body.append(frame);
      await ready;
      const t0 = performance.now();
      const result = await new Promise((resolve) => {
        const onMessage = (e) => {
          if (e.source !== frame.contentWindow) return;
          if (e.data?.type === 'done' || e.data?.type === 'failed') {
            removeEventListener('message', onMessage);
            resolve(e.data);
          }
        };
        addEventListener('message', onMessage);
        const bytes = wasm.slice(0);
        frame.contentWindow.postMessage({ type: 'run', glue, harness, code, query, wasm: bytes }, '*', [bytes]);
      });
      frame.remove();
      return { ...result, pageMs: performance.now() - t0 };
    };
  });
}
