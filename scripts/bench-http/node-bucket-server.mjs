// The baseline for scripts/bench-http.sh: a plain Node `http` server doing the work
// of `ratelab serve`'s GET /bucket, no dependencies. One token bucket per x-api-key
// (`anonymous` without one), 10 per 1000 ms, refilled by arithmetic when a request
// comes; the same five RateLimit headers on every answer, Retry-After on a 429, and
// the bodies `ok` / `slow down`. Usage: node node-bucket-server.mjs PORT
import { createServer } from 'node:http'

const port = Number(process.argv[2] ?? 55552)
const capacity = 10
const windowMs = 1000
const perMs = capacity / windowMs
const buckets = new Map()

function take (key) {
  const now = performance.now()
  let b = buckets.get(key)
  if (!b) {
    b = { tokens: capacity, at: now }
    buckets.set(key, b)
  }
  b.tokens = Math.min(capacity, b.tokens + (now - b.at) * perMs)
  b.at = now
  const allowed = b.tokens >= 1
  if (allowed) b.tokens -= 1
  const remaining = Math.floor(b.tokens)
  const retryMs = allowed ? 0 : (1 - b.tokens) / perMs
  const resetMs = (capacity - b.tokens) / perMs
  return { allowed, remaining, retryS: Math.ceil(retryMs / 1000), resetS: Math.ceil(resetMs / 1000) }
}

createServer((req, res) => {
  if (req.method !== 'GET' || req.url !== '/bucket') {
    res.writeHead(404).end()
    return
  }
  const d = take(req.headers['x-api-key'] || 'anonymous')
  res.setHeader('RateLimit-Policy', `"burst";q=${capacity};w=${Math.ceil(windowMs / 1000)}`)
  res.setHeader('RateLimit', `"burst";r=${d.remaining};t=${d.resetS}`)
  res.setHeader('RateLimit-Limit', String(capacity))
  res.setHeader('RateLimit-Remaining', String(d.remaining))
  res.setHeader('RateLimit-Reset', String(d.resetS))
  if (d.allowed) {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('ok\n')
  } else {
    res.setHeader('Retry-After', String(Math.max(1, d.retryS)))
    res.writeHead(429, { 'content-type': 'text/plain; charset=utf-8' }).end('slow down\n')
  }
}).listen(port, '127.0.0.1', () => console.log(`node baseline on http://127.0.0.1:${port}/bucket`))
