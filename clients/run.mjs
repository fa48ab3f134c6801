// Runs a client module against a provider over real HTTP, as `ratelab judge` hands it
// one: `node clients/run.mjs <client.js>`. The module exports `charge(id, { baseUrl })`,
// called once for every customer; the run is over when every one of them has settled.
//
//   RATELAB_URL        the provider's address (`ratelab judge` sets it; e.g.
//                      http://127.0.0.1:55541 for `ratelab serve`)
//   RATELAB_CUSTOMERS  how many customers, 1 to 1000000 (default 1000): ids 1..=N
//
// Every customer arrives at once, as in the article's batch. A charge that rejects is
// reported on stderr and counted; the exit code is 0 once all have settled.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [file] = process.argv.slice(2);
const baseUrl = process.env.RATELAB_URL;
const customers = Number(process.env.RATELAB_CUSTOMERS ?? '1000');
if (!file || !baseUrl || !Number.isInteger(customers) || customers < 1 || customers > 1_000_000) {
  console.error('usage: RATELAB_URL=http://host:port [RATELAB_CUSTOMERS=1..1000000] node clients/run.mjs <client.js>');
  process.exit(2);
}
const client = await import(pathToFileURL(path.resolve(file)).href);
if (typeof client.charge !== 'function') {
  console.error(`${file} exports no charge(id, { baseUrl }) function`);
  process.exit(2);
}
const ids = Array.from({ length: customers }, (_, i) => i + 1);
const settled = await Promise.allSettled(ids.map((id) => client.charge(id, { baseUrl })));
const rejected = settled.filter((s) => s.status === 'rejected');
for (const r of rejected.slice(0, 5)) console.error(`a charge threw: ${r.reason}`);
console.error(`${customers} customers: ${customers - rejected.length} settled, ${rejected.length} threw`);
