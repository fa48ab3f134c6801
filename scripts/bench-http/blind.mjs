// A blind client for scripts/bench-http.sh: CONNECTIONS loops, each sending GET URL
// again the moment its answer is read, ignoring every 429 and header, for SECONDS.
// Keep-alive connections, Node's own `http` (faster than fetch). Prints one line:
// the answers per second, and how many were 200 and 429; the last word is the number
// of answers, for the script that runs it.
// Usage: node blind.mjs URL SECONDS CONNECTIONS LABEL
import http from 'node:http'

const [url, seconds = '5', connections = '32', label = url] = process.argv.slice(2)
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) })
const until = performance.now() + Number(seconds) * 1000
const codes = new Map()
let answers = 0
let errors = 0

function once () {
  return new Promise((resolve) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume()
      res.on('end', () => {
        answers++
        codes.set(res.statusCode, (codes.get(res.statusCode) ?? 0) + 1)
        resolve()
      })
    })
    req.on('error', () => { errors++; resolve() })
  })
}

async function loop () {
  while (performance.now() < until) await once()
}

const t0 = performance.now()
await Promise.all(Array.from({ length: Number(connections) }, loop))
const s = (performance.now() - t0) / 1000
agent.destroy()
const rate = Math.round(answers / s)
console.log(`${label.padEnd(14)} ${String(rate).padStart(7)} requests/s  (${answers} in ${s.toFixed(1)} s: ${codes.get(200) ?? 0} × 200, ${codes.get(429) ?? 0} × 429, ${errors} errors; ${connections} connections) ${answers}`)
