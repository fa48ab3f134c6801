// The parameters' help on the page is the command line's, and the incident's quotes the
// core's figures (issue 14): one sentence, built once in the page layer, in both places;
// the customers field states the page's own range and refuses more beside Run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, cliText, screenshotPath, waitForState } from './harness.mjs';

const lab = useLab(before, after);

/** Each parameter's long help in `ratelab charges --help`: the line under its flag's. */
function cliHelp() {
  const lines = cliText(['charges', '--help']).split('\n');
  const help = {};
  lines.forEach((line, i) => {
    const flag = line.match(/^\s+--([A-Za-z]+) <[A-Z]+>$/);
    if (flag && lines[i + 2]?.trim()) help[flag[1]] = lines[i + 2].trim();
  });
  return help;
}

test('the incident help on the page is the command line help, with the core figures', async () => {
  const help = cliHelp();
  assert.match(help.incident, /\(1 in 2 fail\).*\(all 503\).*\(2 in flight, 20 a window\)\.$/, help.incident);
  for (const width of [1366, 375]) {
    const page = await openPage(lab.browser, { viewport: { width, height: 768 } });
    await page.goto(`${lab.server.base}?strategy=pool&seed=1&incident=capacity`);
    await page.waitForSelector('[data-testid="params"]');
    // A changed number opens the panel by itself; open it if not.
    if (!(await page.$eval('[data-testid="params"]', (d) => d.open))) {
      await page.click('[data-testid="params"] summary');
    }
    assert.ok(await page.isVisible('input[data-param="incident"]'));
    for (const key of ['incident', 'incidentStartMs', 'incidentMs', 'maxInflight']) {
      assert.equal(await page.getAttribute(`input[data-param="${key}"]`, 'title'), help[key], key);
    }
    await page.locator('input[data-param="incident"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`params-help-${width}.png`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the panel states the customers the page runs; a larger batch is refused beside its field and beside Run, before it starts', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  // The bare address runs on its own thread, up to a million.
  await page.goto(`${lab.server.base}?seed=1`);
  await waitForState(page, 'idle');
  await page.click('[data-testid="params"] summary');
  const help = page.locator('[data-param-help="customers"]');
  await page.waitForFunction(() => /^1–1000000 customers · default 1000$/.test(document.querySelector('[data-param-help="customers"]').textContent));
  await page.fill('[data-param="customers"]', '2000000');
  await page.waitForFunction(() => /at most 1,000,000 customers \(2,000,000 asked\): open the run page \(run\.html\)/.test(document.querySelector('[data-param-help="customers"]').textContent));
  assert.equal(await page.getAttribute('[data-param="customers"]', 'aria-invalid'), 'true');
  // Run: nothing starts, and the reason stands beside the button, on the same screen.
  await page.click('[data-testid="run"]');
  const why = page.locator('[data-testid="run-error"]');
  await why.waitFor();
  assert.match(await why.textContent(), /^This page runs at most 1,000,000 customers \(2,000,000 asked\).* Fix the highlighted number/);
  await page.waitForTimeout(300);
  assert.equal(await page.getAttribute('[data-testid="app"]', 'data-run-state'), 'idle');
  const [run, said] = await Promise.all([page.locator('[data-testid="run"]').boundingBox(), why.boundingBox()]);
  assert.ok(Math.abs(said.y - run.y) < 200, `beside Run: ${JSON.stringify([run, said])}`);
  assert.ok(said.y >= 0 && said.y + said.height <= 768, 'on screen');
  // A number the page runs clears the refusal at the next run.
  await page.fill('[data-param="customers"]', '1000');
  await page.click('[data-testid="run"]');
  await waitForState(page, 'done', 60_000);
  assert.equal(await why.isHidden(), true);
  assert.match(await help.textContent(), /^1–1000000 customers/);
  // run.html hands large runs to a simulation worker: it states and takes the core's range,
  // and refuses beyond it the same way.
  await page.goto(`${lab.server.base}run.html?seed=1`);
  await waitForState(page, 'idle');
  await page.click('[data-testid="params"] summary');
  await page.waitForFunction(() => /^1–10000000 customers · default 1000$/.test(document.querySelector('[data-param-help="customers"]').textContent));
  await page.fill('[data-param="customers"]', '10000001');
  await page.waitForFunction(() => /from 1 to 10000000 customers/.test(document.querySelector('[data-param-help="customers"]').textContent));
  await page.click('[data-testid="run"]');
  await page.locator('[data-testid="run-error"]:not([hidden])').waitFor();
  assert.match(await page.textContent('[data-testid="run-error"]'), /Fix the highlighted number/);
  assert.equal(await page.getAttribute('[data-testid="app"]', 'data-run-state'), 'idle');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
