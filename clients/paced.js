// paced: naive, but every request first takes a turn from a pacer set below the limit.

const RATE_PER_S = 90; // the provider allows 100 a second: aim for 90

// The pacer keeps one number, the time the next request may start. Each request works
// out its turn, books the next one, then waits (a turn already due is not waited for).
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

export async function charge(id, { baseUrl }) {
  await waitForTurn();
  const res = await fetch(`${baseUrl}/charge`, {
    method: 'POST',
    body: JSON.stringify({ id, amount: 1000 }),
  });
  return { id, status: res.status };
}
