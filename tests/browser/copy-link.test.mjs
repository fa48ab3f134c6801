// Copy link: the clipboard gets the page's address and the page says so only once the
// browser has written it; a browser that refuses gets the address shown to copy by hand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, openPage, waitForState } from './harness.mjs';

const lab = useLab(before, after);
const RUN = '?strategy=timeout-no-key&seed=9&speed=instant&pacer=80';
const MESSAGE = '.rll-export [role="status"]';

test('Copy link puts the address in the clipboard, then says so', async () => {
  const page = await openPage(lab.browser);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(lab.server.base).origin });
  await page.goto(lab.server.base + RUN);
  await waitForState(page, 'done');
  // Something else in the clipboard first, so what is read back can only be the copy.
  await page.evaluate(() => navigator.clipboard.writeText('not the link'));
  await page.click('[data-testid="copy-link"]');
  await page.waitForFunction((sel) => /^Link copied/.test(document.querySelector(sel)?.textContent ?? ''), MESSAGE);
  const [copied, href] = await page.evaluate(async () => [await navigator.clipboard.readText(), location.href]);
  assert.equal(copied, href);
  assert.match(copied, /strategy=timeout-no-key&seed=9/);
  assert.match(copied, /pacer=80/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Copy link, refused by the browser: the address to copy by hand, not "Link copied"', async () => {
  const page = await openPage(lab.browser);
  await page.addInitScript(() => {
    Clipboard.prototype.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
  });
  await page.goto(lab.server.base + RUN);
  await waitForState(page, 'done');
  await page.click('[data-testid="copy-link"]');
  await page.waitForFunction((sel) => (document.querySelector(sel)?.textContent ?? '').length > 0, MESSAGE);
  const [message, href] = await page.evaluate((sel) => [document.querySelector(sel).textContent, location.href], MESSAGE);
  assert.doesNotMatch(message, /Link copied/);
  assert.match(message, /would not let the page copy/);
  assert.ok(message.endsWith(href), `the message gives the address: ${message}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
