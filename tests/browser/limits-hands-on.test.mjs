// The limits experiments, hands on: one control moved per experiment (a drag, a key, a
// slider, a switch), and each time the page's cells equal `ratelab limits … --json` for
// the settings the address now holds. Then the charts' text on a 375 px phone, measured.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, readResults, cli } from './harness.mjs';

const lab = useLab(before, after);

// Each experiment's settings keys (crates/page/src/limits/settings.rs, KNOBS).
const KEYS = {
  burst: ['burstOffsetMs', 'burstGapMs'],
  units: ['unitsWaitS'],
  clients: ['clientsCalls', 'clientsLimit', 'blindRetry'],
  neighbour: ['noisyRequests', 'quietCallers'],
  memory: ['memoryCallers', 'memoryPerWindow'],
  herd: ['herdJitter', 'herdClients'],
};

async function open(page, name, seed, extra = '') {
  await page.goto(`${lab.server.base}?section=limits&experiment=${name}&seed=${seed}${extra}`);
  await page.waitForSelector(`[data-testid="limits"][data-state="done"][data-experiment="${name}"]`);
  await page.waitForSelector('[data-result]', { state: 'attached' });
}

/** The experiment's settings in the address, as CLI flags. */
async function flags(page, name) {
  const params = new URL(page.url()).searchParams;
  return KEYS[name].filter((k) => params.has(k)).flatMap((k) => [`--${k}`, params.get(k)]);
}

/** Waits for the address to hold `key`, then checks every cell against the CLI. */
async function cellsMatchCli(page, name, seed, key) {
  await page.waitForFunction((k) => new URL(location.href).searchParams.has(k), key);
  const settings = await flags(page, name);
  const expected = cli(['limits', name, '--seed', seed, ...settings]).cells;
  const shown = await readResults(page, '[data-testid="limits"]');
  assert.deepEqual(shown, expected, `${name} ${settings.join(' ')}`);
  return { settings, shown };
}

test('dragging the second volley moves the gap, and the cells follow the CLI', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await open(page, 'burst', '3');
  const before = await readResults(page, '[data-testid="limits"]');
  await page.locator('[data-volley="second"]').scrollIntoViewIfNeeded();
  const handle = await page.locator('[data-volley="second"]').boundingBox();
  const y = handle.y + handle.height / 2;
  await page.mouse.move(handle.x + handle.width / 2, y);
  await page.mouse.down();
  for (let dx = 15; dx <= 60; dx += 15) await page.mouse.move(handle.x + handle.width / 2 + dx, y);
  await page.mouse.up();
  const { settings, shown } = await cellsMatchCli(page, 'burst', '3', 'burstGapMs');
  const gap = Number(settings[settings.indexOf('--burstGapMs') + 1]);
  assert.ok(gap > 170, `the gap grew: ${gap}`);
  // The slider shows where the drag left the volley.
  assert.equal((await page.textContent('[data-knob-value="burstGapMs"]')).replace(/,/g, ''), `${gap} ms`);
  assert.equal(await page.inputValue('input[data-knob="burstGapMs"]'), String(gap));
  // A longer gap refills more of the bucket: it lets more of the second volley in.
  assert.ok(Number(shown['burst.bucketAccepted']) > Number(before['burst.bucketAccepted']));
  assert.match(await page.textContent('[data-testid="burst-lead"]'), new RegExp(`${gap} ms after those`));
  // The bucket's answers say what a client was told, request by request.
  const answers = await page.$$eval('[data-testid="burst-headers"] li', (lis) => lis.map((li) => li.textContent));
  assert.equal(answers.length, 20);
  assert.match(answers[0], /RateLimit: "burst";r=9;t=1/);
  assert.ok(answers.some((a) => /429 .*Retry-After: 1/.test(a)), answers.join('\n'));
  assert.equal(await page.locator('[data-testid="bucket-level"]').count(), 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the first volley moves from the keyboard too', async () => {
  const page = await openPage(lab.browser);
  await open(page, 'burst', '1');
  await page.focus('input[data-knob="burstOffsetMs"]');
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
  // The keyboard's change event lands with each key; the address follows the last.
  await page.waitForFunction(() => new URL(location.href).searchParams.get('burstOffsetMs') === '145');
  await cellsMatchCli(page, 'burst', '1', 'burstOffsetMs');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('one control per experiment moves its cells, always equal to the CLI', async () => {
  const page = await openPage(lab.browser);
  const moves = [
    ['units', 'unitsWaitS', (p) => p.fill('input[data-knob="unitsWaitS"]', '3')],
    ['clients', 'blindRetry', (p) => p.click('[data-knob="blindRetry"] button[data-value="1ms"]')],
    ['clients', 'clientsLimit', (p) => p.fill('input[data-knob="clientsLimit"]', '20')],
    ['neighbour', 'quietCallers', (p) => p.fill('input[data-knob="quietCallers"]', '5')],
    ['memory', 'memoryCallers', (p) => p.fill('input[data-knob="memoryCallers"]', '20')],
    ['herd', 'herdJitter', (p) => p.click('[data-knob="herdJitter"] button[data-value="decorrelated"]')],
    ['herd', 'herdClients', (p) => p.fill('input[data-knob="herdClients"]', '300')],
  ];
  for (const [name, key, move] of moves) {
    await open(page, name, '7');
    const before = await readResults(page, '[data-testid="limits"]');
    await move(page);
    const { shown } = await cellsMatchCli(page, name, '7', key);
    assert.notDeepEqual(shown, before, `${name}: moving ${key} changed something`);
  }
  // The live words follow: the traffic ratio, the memory ratio, the herd's peak.
  await open(page, 'clients', '7', '&blindRetry=1ms');
  const ratio = await page.textContent('[data-testid="traffic-ratio"]');
  const cells = await readResults(page, '[data-testid="limits"]');
  assert.equal(ratio.replace(/[,×]/g, ''), cells['clients.trafficRatio']);
  await open(page, 'herd', '7', '&herdJitter=equal');
  const herd = await readResults(page, '[data-testid="limits"]');
  assert.equal(await page.textContent('[data-testid="herd-peak"]'), herd['herd.equalPeakPerMs']);
  const verdict = await page.textContent('[data-testid="herd-verdict"]');
  assert.ok(verdict.includes(`${herd['herd.leastWork']} jitter does the least work`), verdict);
  assert.ok(verdict.includes(`${herd['herd.firstDone']} jitter gets the last client in first`), verdict);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a setting out of range in the address is refused with its sentence', async () => {
  const page = await openPage(lab.browser);
  await open(page, 'herd', '1', '&herdClients=5000&herdJitter=sometimes');
  const text = await page.textContent('[data-testid="query-problems"]');
  assert.match(text, /Clients refused at once \(herdClients\): 5000 is outside 1–1000 clients\. Using the default, 100 clients\./);
  assert.match(text, /Jitter \(herdJitter\): 'sometimes' is not one of none, full, equal, decorrelated\./);
  const cells = await readResults(page, '[data-testid="limits"]');
  assert.equal(cells['herd.clients'], '100');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('chart text is at least 12 CSS px on a 375 px phone, and at 1366', async () => {
  for (const width of [375, 1366]) {
    const page = await openPage(lab.browser, { viewport: { width, height: 800 } });
    for (const name of ['burst', 'memory', 'herd']) {
      await open(page, name, '1');
      await page.waitForSelector('[data-testid="limits"] svg text');
      const sizes = await page.$$eval('[data-testid="limits"] svg', (svgs) =>
        svgs.flatMap((svg) => {
          // One user unit is this many CSS pixels on screen.
          const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          return [...svg.querySelectorAll('text')].map((t) => ({
            px: parseFloat(getComputedStyle(t).fontSize) * scale,
            text: t.textContent,
          }));
        }),
      );
      assert.ok(sizes.length >= 3, `${name}: labels found`);
      const smallest = sizes.reduce((a, b) => (b.px < a.px ? b : a));
      assert.ok(smallest.px >= 12, `${name} at ${width}: '${smallest.text}' is ${smallest.px} px`);
      // Nothing sticks out of the page sideways.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `${name} at ${width}: ${overflow} px wider than the screen`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

