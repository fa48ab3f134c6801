// The footer's second line: the two commands that run a charges page for real over HTTP
// (`page::links::http_cli_line`), on the pages that have a real-time counterpart only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState, screenshotPath, CLI_PREFIX } from './harness.mjs';

const lab = useLab(before, after);
const SERVE = '[data-testid="http-serve-command"]';
const CLIENT = '[data-testid="http-cli-command"]';

test('The run page gives the server with the provider numbers and the client with the rest', async () => {
  for (const width of [1366, 375]) {
    const page = await openPage(lab.browser, { viewport: { width, height: 768 } });
    await page.goto(lab.server.base + '?strategy=pool&seed=4&speed=instant&maxInflight=20&workers=3');
    await waitForState(page, 'done');
    assert.equal((await page.textContent(SERVE)).trim(), `${CLI_PREFIX} serve --maxInflight 20`);
    assert.equal(
      (await page.textContent(CLIENT)).trim(),
      `${CLI_PREFIX} charges --http http://127.0.0.1:55541 --strategy pool --seed 4 --workers 3`,
    );
    const footer = page.locator('footer.rll-footer');
    await footer.scrollIntoViewIfNeeded();
    await footer.screenshot({ path: screenshotPath(`http-footer-${width}.png`) });
    // Nothing in the footer sticks out of the window on a phone.
    const right = await page.$$eval('footer.rll-footer, footer.rll-footer *', (els) =>
      Math.max(...els.map((e) => e.getBoundingClientRect().right)));
    assert.ok(right <= width, `the footer reaches ${right}px in a ${width}px window`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('The compare page runs all ten for real; a sweep has no real-time line', async () => {
  const page = await openPage(lab.browser);
  await page.goto(lab.server.base + '?view=compare&seed=2');
  await page.waitForSelector('[data-testid="compare"]');
  await page.waitForSelector(CLIENT);
  assert.match((await page.textContent(CLIENT)).trim(), / --all --seed 2$/);
  await page.goto(lab.server.base + '?view=sweep');
  await page.waitForSelector('[data-testid="sweep"]');
  assert.equal(await page.locator(CLIENT).isVisible(), false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
