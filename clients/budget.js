// budget: headers, plus a retry budget shared by every charge.
//
// The numbers are the AWS SDKs' "standard" retry quota: a bucket of 500 tokens; a retry
// costs 5, or 10 after a timeout; a success on the first try puts 1 back, and a success
// after a retry puts back what that retry cost. A retry the bucket cannot pay for is not
// sent: that charge gives up and says so. When the provider is down, the bucket runs dry
// after about a hundred retries, and the client stops adding to the load.

const RATE_PER_S = 90; // the provider allows 100 a second: aim for 90
const MAX_ATTEMPTS = 5;
const BACKOFF_MS = 100; // after failed attempt k, wait 100 · 2^(k−1) ms
const TIMEOUT_MS = 1000;
const WORKERS = 6;

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

// The wait a refusal asks for, in µs: Retry-After in seconds, else the RateLimit field's t.
function waitFromHeaders(res) {
  const retryAfter = res.headers.get('retry-after')?.trim();
  if (retryAfter && /^\d+$/.test(retryAfter)) return Number(retryAfter) * 1_000_000;
  const t = res.headers.get('ratelimit')?.match(/;\s*t=(\d+)/);
  return t ? Number(t[1]) * 1_000_000 : null;
}

// The retry budget, shared by every charge.
const QUOTA = { capacity: 500, retryCost: 5, timeoutCost: 10, successRefund: 1 };
let tokens = QUOTA.capacity;
function payForRetry(timedOut) {
  const cost = timedOut ? QUOTA.timeoutCost : QUOTA.retryCost;
  if (tokens < cost) return null;
  tokens -= cost;
  return cost;
}
function refund(lastCost) {
  tokens = Math.min(QUOTA.capacity, tokens + (lastCost ?? QUOTA.successRefund));
}

// One pause for every worker, and how far past it each comes back.
let pausedUntilUs = 0;
let pauseSpreadUs = 0;
async function turnToSend() {
  for (;;) {
    await waitForTurn();
    const now = nowUs();
    if (now >= pausedUntilUs) return;
    await sleep((pausedUntilUs + Math.round(Math.random() * pauseSpreadUs) - now) / 1000);
  }
}

// The pool: a free worker takes the customer; otherwise the customer waits its turn
// for the next worker that finishes, first come, first served.
let freeWorkers = WORKERS;
const waitingForWorker = [];
async function takeWorker() {
  if (freeWorkers > 0) freeWorkers--;
  else await new Promise((resolve) => waitingForWorker.push(resolve));
}
function releaseWorker() {
  const next = waitingForWorker.shift();
  if (next) next();
  else freeWorkers++;
}

async function chargeOnce(id, baseUrl) {
  const key = `ck-${id}`; // one key per charge, on every attempt
  let lastCost = null; // what this charge's last retry cost the budget
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    await turnToSend();
    let res;
    try {
      res = await fetch(`${baseUrl}/charge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ id, amount: 1000 }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      if (attempt === MAX_ATTEMPTS) break;
      lastCost = payForRetry(true);
      if (lastCost === null) return { id, status: 'budget spent' };
      await sleep(backoff(attempt)); // timed out: try again
      continue;
    }
    if (res.status === 200) refund(attempt === 1 ? null : lastCost);
    if ([200, 400, 422].includes(res.status)) return { id, status: res.status };
    if (attempt === MAX_ATTEMPTS) break;
    lastCost = payForRetry(false);
    if (lastCost === null) return { id, status: 'budget spent' };
    const wait = [429, 503].includes(res.status) ? waitFromHeaders(res) : null;
    if (wait === null) {
      await sleep(backoff(attempt)); // 500, 409, or a refusal that names no wait
    } else {
      // Everyone waits; this worker comes back up to as long again after.
      pausedUntilUs = Math.max(pausedUntilUs, nowUs() + wait);
      pauseSpreadUs = wait;
      await sleep((wait + Math.round(Math.random() * wait)) / 1000);
    }
  }
  return { id, status: 'gave up' };
}

export async function charge(id, { baseUrl }) {
  await takeWorker();
  try {
    return await chargeOnce(id, baseUrl);
  } finally {
    releaseWorker();
  }
}
