// "Break the provider" during a watched run: the incident starts at the moment on
// screen, the URL takes that moment, and the numbers equal both the URL's own run and
// the CLI's (issue 14).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState, cli, screenshotPath } from './harness.mjs';

const lab = useLab(before, after);

/** Every `data-stat` of the stats panel, as numbers (the panel writes 1,234). */
async function panelStats(page) {
  return page.$$eval('[data-testid="stats-panel"] [data-stat], .rll-stats [data-stat]', (els) =>
    Object.fromEntries(els.map((e) => [e.dataset.stat, Number(e.textContent.replace(/[^0-9]/g, ''))])),
  );
}

test('a button-triggered incident gives the same numbers as its URL and as the CLI', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await page.goto(`${lab.server.base}?strategy=pool&seed=4&speed=1x`);
  await waitForState(page, 'running');
  const button = page.locator('[data-testid="break-provider"]');
  await button.waitFor({ state: 'visible' });
  assert.equal((await button.textContent()).trim(), 'Break the provider for 3.0 s');
  // Let about a second of simulated time play, then break it.
  await page.waitForTimeout(1200);
  await button.click();
  const start = await page.evaluate(() => new URL(location.href).searchParams.get('incidentStartMs'));
  assert.equal(await page.evaluate(() => new URL(location.href).searchParams.get('incident')), 'down');
  assert.ok(Number(start) >= 900 && Number(start) < 5000, `started at the moment on screen: ${start} ms`);
  // The run plays on from there; finish it at once.
  await page.click('[data-speed="instant"]');
  await waitForState(page, 'done');
  await page.locator('[data-stat]').first().waitFor();
  const shown = await panelStats(page);
  const query = (await page.evaluate(() => location.search)).slice(1);
  const expected = cli(['charges', '--query', query]);
  assert.ok(expected.incidentRequests > 0, 'requests reached the provider while it was down');
  for (const [field, value] of Object.entries(shown)) assert.equal(value, expected[field], `after the button: ${field}`);
  assert.ok(Object.keys(shown).length >= 10, Object.keys(shown).join());
  const note = await page.textContent('[data-testid="incident-note"]');
  assert.match(note, new RegExp(`was down from ${(Number(start) / 1000).toFixed(1)} s`), note);
  assert.ok(note.includes(`${expected.incidentRequests.toLocaleString('en-US')} requests reached it`), note);
  await page.screenshot({ path: screenshotPath('incident-button.png') });

  // The copied link: the same run, with no button pressed.
  const linked = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await linked.goto(`${lab.server.base}?${query.replace(/speed=[^&]*/, 'speed=instant')}`);
  await waitForState(linked, 'done');
  await linked.locator('[data-stat]').first().waitFor();
  assert.deepEqual(await panelStats(linked), shown, 'the URL replays the broken run');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(linked.errors, []);
  await page.context().close();
  await linked.context().close();
});

test('the button shows only while a run is watched', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=instant`);
  await waitForState(page, 'done');
  assert.equal(await page.locator('[data-testid="break-provider"]').isVisible(), false);
  await page.context().close();
});
