// paced: naive, but every request first takes a turn from a pacer set below the limit.

const RATE_PER_S = 90; // the provider allows 100 a second: aim for 90

// The pacer keeps one number, the time the next request may start. Each request works
// out its turn, books the next one, then waits (a turn already due is not waited for).
const gapMs = Math.floor(1_000_000 / RATE_PER_S) / 1000; // 11.111 ms, to the microsecond
let nextTurnMs = 0;
async function waitForTurn() {
  const now = performance.now();
  const turn = Math.max(now, nextTurnMs);
  nextTurnMs = turn + gapMs;
  if (turn > now) await sleep(turn - now);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function charge(id, { baseUrl }) {
  await waitForTurn();
  const res = await fetch(`${baseUrl}/charge`, {
    method: 'POST',
    body: JSON.stringify({ id, amount: 1000 }),
  });
  return { id, status: res.status };
}
