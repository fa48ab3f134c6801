// timeout-no-key: retry, but stop waiting for an attempt after a deadline.
//
// The provider does not know the client stopped waiting: it finishes a slow charge
// anyway. Without a key, the retry looks like a new charge, and the customer pays twice.

const RATE_PER_S = 90; // the provider allows 100 a second: aim for 90
const MAX_ATTEMPTS = 5;
const BACKOFF_MS = 100; // after failed attempt k, wait 100 · 2^(k−1) ms
const TIMEOUT_MS = 1000;

// Times are kept in whole microseconds, as the lab keeps them, so that two instants
// compare equal when they are.
const nowUs = () => Math.round(performance.now() * 1000);
const gapUs = Math.floor(1_000_000 / RATE_PER_S); // 11,111 µs
let nextTurnUs = 0;
async function waitForTurn() {
  const now = nowUs();
  const turn = Math.max(now, nextTurnUs);
  nextTurnUs = turn + gapUs;
  if (turn > now) await sleep((turn - now) / 1000);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const backoff = (attempt) => BACKOFF_MS * 2 ** (attempt - 1);

export async function charge(id, { baseUrl }) {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    await waitForTurn();
    let res;
    try {
      res = await fetch(`${baseUrl}/charge`, {
        method: 'POST',
        body: JSON.stringify({ id, amount: 1000 }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      if (attempt < MAX_ATTEMPTS) await sleep(backoff(attempt)); // timed out: try again
      continue;
    }
    if ([200, 400, 422].includes(res.status)) return { id, status: res.status };
    if (attempt < MAX_ATTEMPTS) await sleep(backoff(attempt)); // 500, 503, 429, 409
  }
  return { id, status: 'gave up' };
}
