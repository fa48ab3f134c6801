// The parameters' help on the page is the command line's, and the incident's quotes the
// core's figures (issue 14): one sentence, built once in the page layer, in both places.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, cliText, screenshotPath } from './harness.mjs';

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
