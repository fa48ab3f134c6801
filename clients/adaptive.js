// adaptive: breaker, but instead of a fixed six workers, as many as the provider can
// take, found by AIMD (additive increase, multiplicative decrease).
//
// The rule is the controller of Vector's adaptive request concurrency, with its default
// settings, in whole microseconds. Over each interval of one average round trip, the
// client averages the round trips of its 200s and notes whether it was at its limit and
// whether it met back-pressure (a 429, a 503 or a timeout). At the interval's end the
// limit grows by 1 if it was at its limit with no back-pressure and no slower round
// trips; falls to 0.9 of itself if it met back-pressure or the round trip was 2.5
// deviations above the average; else stays. A send over the limit waits a round trip,
// then twice that, and asks again.

const RATE_PER_S = 90; // the provider allows 100 a second: aim for 90
const MAX_ATTEMPTS = 5;
const BACKOFF_MS = 100; // after failed attempt k, wait 100 · 2^(k−1) ms
const TIMEOUT_MS = 1000;
const AIMD = { initial: 1, max: 200, decreaseTenths: 9, alphaTenths: 4, deviationTenths: 25 };

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
    } else if (awaiting >= limit) {
      const pollUs = Math.max(past?.meanUs ?? 0, 1000); // a round trip, at least 1 ms
      await sleep(Math.min(pollUs * 2 ** Math.min(polls, 20), Math.max(MAX_POLL_US, pollUs)) / 1000);
      polls++;
    } else if (breakerPermits(now)) {
      awaiting++;
      return;
    } else if (breaker.state === 'open') {
      await sleep((Math.max(breaker.untilUs, now + 1) - now) / 1000);
    } else {
      await sleep(Math.min(BREAKER.pollUs * 2 ** Math.min(polls, 20), Math.max(MAX_POLL_US, BREAKER.pollUs)) / 1000);
      polls++;
    }
  }
}

// The concurrency limit. A charge begins when fewer than `limit` are under way (first
// come, first served); an attempt is sent when fewer than `limit` are awaited. Round
// trips are whole microseconds, as the controller counts them.
let limit = AIMD.initial;
let past = null; // { meanUs, varianceUs2 } of the past intervals' round trips
let nextUpdateUs = 0;
let currentSumUs = 0;
let currentCount = 0;
let underWay = 0; // charges begun and not finished
let awaiting = 0; // attempts sent and not answered
let reached = false;
let pressure = false;
const waitingToBegin = [];
async function begin() {
  if (waitingToBegin.length > 0 || underWay >= limit) {
    await new Promise((resolve) => waitingToBegin.push(resolve));
  } else {
    underWay++;
  }
  reached ||= underWay >= limit;
}
// Lets waiting charges begin while the limit has room (each holds its place from here).
function letMoreBegin() {
  while (waitingToBegin.length > 0 && underWay < limit) {
    underWay++;
    waitingToBegin.shift()();
  }
}
function attemptEnded(rttUs, pushedBack) {
  awaiting--;
  pressure ||= pushedBack;
  if (rttUs !== null) {
    currentSumUs += rttUs;
    currentCount++;
  }
}
function finished() {
  underWay--;
  const now = nowUs();
  const currentUs = currentCount > 0 ? Math.floor(currentSumUs / currentCount) : null;
  if (past === null) {
    if (currentUs !== null) {
      past = { meanUs: currentUs, varianceUs2: 0 };
      nextUpdateUs = now + currentUs;
    }
    return;
  }
  if (now < nextUpdateUs) return;
  if (limit < AIMD.max && reached && !pressure && currentUs !== null && currentUs <= past.meanUs) {
    limit += 1;
  } else if (limit > 1 && (pressure || farAbove(past, currentUs ?? 0))) {
    limit = Math.max(1, Math.floor((limit * AIMD.decreaseTenths) / 10));
  }
  if (currentUs !== null) past = averaged(past, currentUs);
  nextUpdateUs = now + past.meanUs;
  currentSumUs = 0;
  currentCount = 0;
  reached = false;
  pressure = false;
}
// West's recurrence for an exponentially weighted mean and variance, in whole µs.
function averaged({ meanUs, varianceUs2 }, rttUs) {
  const a = AIMD.alphaTenths;
  const d = rttUs - meanUs;
  return {
    meanUs: meanUs + Math.trunc((d * a) / 10),
    varianceUs2: Math.floor(((10 - a) * (10 * varianceUs2 + a * d * d)) / 100),
  };
}
function farAbove({ meanUs, varianceUs2 }, rttUs) {
  const d = rttUs - meanUs;
  const s = AIMD.deviationTenths;
  return d >= 0 && 100 * d * d >= s * s * varianceUs2;
}

async function chargeOnce(id, baseUrl) {
  const key = `ck-${id}`; // one key per charge, on every attempt
  let lastCost = null; // what this charge's last retry cost the budget
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    await turnToSend();
    const sentUs = nowUs();
    let res;
    try {
      res = await fetch(`${baseUrl}/charge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ id, amount: 1000 }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      attemptEnded(null, true);
      breakerRecord(nowUs(), true);
      if (attempt === MAX_ATTEMPTS) break;
      lastCost = payForRetry(true);
      if (lastCost === null) return { id, status: 'budget spent' };
      await sleep(backoff(attempt)); // timed out: try again
      continue;
    }
    attemptEnded(res.status === 200 ? nowUs() - sentUs : null, [429, 503].includes(res.status));
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
  await begin();
  try {
    return await chargeOnce(id, baseUrl);
  } finally {
    finished();
    letMoreBegin();
  }
}
