// breaker: budget, plus a circuit breaker in front of every send.
//
// The shape is resilience4j's count-based breaker, scaled to this workload: it opens when
// at least half of the last 20 recorded attempts failed, with at least 10 recorded; it
// stays open 1 s; then it lets 3 probes through, and closes if fewer than half of them
// fail, or opens again. While it is open, workers wait for it rather than send. A failure
// is a 429, 500 or 503 or a timeout; a 200, 400, 409 or 422 is the provider answering.

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

// The breaker: closed (outcomes counted over a window), open until a time, or half-open
// with a few probes out.
const BREAKER = { window: 20, minimum: 10, failurePercent: 50, openUs: 1_000_000, probes: 3, pollUs: 50_000 };
const MAX_POLL_US = 1_000_000;
let breaker = { state: 'closed', outcomes: [] };
function breakerPermits(now) {
  if (breaker.state === 'open') {
    if (now < breaker.untilUs) return false;
    breaker = { state: 'half-open', sent: 0, recorded: 0, failed: 0 };
  }
  if (breaker.state === 'closed') return true;
  if (breaker.sent < BREAKER.probes) {
    breaker.sent++;
    return true;
  }
  return false;
}
function breakerRecord(now, failed) {
  let open = false;
  if (breaker.state === 'closed') {
    breaker.outcomes = [...breaker.outcomes, failed].slice(-BREAKER.window);
    const n = breaker.outcomes.length;
    const failures = breaker.outcomes.filter(Boolean).length;
    open = n >= BREAKER.minimum && failures * 100 >= BREAKER.failurePercent * n;
  } else if (breaker.state === 'half-open') {
    breaker.recorded++;
    breaker.failed += failed ? 1 : 0;
    if (breaker.recorded >= BREAKER.probes) {
      open = breaker.failed * 100 >= BREAKER.failurePercent * BREAKER.probes;
      if (!open) breaker = { state: 'closed', outcomes: [] };
    }
  }
  if (open) breaker = { state: 'open', untilUs: now + BREAKER.openUs };
}

// One pause for every worker, and how far past it each comes back.
let pausedUntilUs = 0;
let pauseSpreadUs = 0;
async function turnToSend() {
  let polls = 0; // looks in a row at a half-open breaker with every probe out
  for (;;) {
    await waitForTurn();
    const now = nowUs();
    if (now < pausedUntilUs) {
      await sleep((pausedUntilUs + Math.round(Math.random() * pauseSpreadUs) - now) / 1000);
    } else if (breakerPermits(now)) {
      return;
    } else if (breaker.state === 'open') {
      await sleep((Math.max(breaker.untilUs, now + 1) - now) / 1000);
    } else {
      await sleep(Math.min(BREAKER.pollUs * 2 ** Math.min(polls, 20), Math.max(MAX_POLL_US, BREAKER.pollUs)) / 1000);
      polls++;
    }
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
      breakerRecord(nowUs(), true);
      if (attempt === MAX_ATTEMPTS) break;
      lastCost = payForRetry(true);
      if (lastCost === null) return { id, status: 'budget spent' };
      await sleep(backoff(attempt)); // timed out: try again
      continue;
    }
    breakerRecord(nowUs(), ![200, 400, 409, 422].includes(res.status));
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
