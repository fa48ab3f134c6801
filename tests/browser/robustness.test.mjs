// Robustness and accessibility: a corpus of hostile links, the Content-Security-Policy,
// keyboard focus, and an automated accessibility pass (axe-core) on every view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { useLab, openPage, waitForState, ROOT } from './harness.mjs';

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const CORPUS = fs.readFileSync(path.join(ROOT, 'crates', 'page', 'tests', 'hostile_urls.txt'), 'utf8').split('\n').filter((l) => l.trim());

const lab = useLab(before, after);

test(`${CORPUS.length} hostile links: a message each, no error, no freeze, no injected markup`, async () => {
  assert.ok(CORPUS.length >= 30);
  const page = await openPage(lab.browser);
  for (const line of CORPUS) {
    page.errors.length = 0;
    await page.goto(lab.server.base + line).catch((e) => assert.fail(`could not load ${line.slice(0, 80)}…: ${String(e).slice(0, 200)}`));
    await page.waitForSelector('[data-run-state]', { timeout: 10_000 });
    // Responsive: the page answers within a second.
    const alive = await Promise.race([page.evaluate(() => 1), new Promise((r) => setTimeout(() => r(0), 5_000))]);
    assert.equal(alive, 1, `the page froze on ${line}`);
    const message = await page.locator('[role="alert"]').first().textContent({ timeout: 5_000 });
    assert.ok(message && message.trim().length > 10, `a clear message for ${line.slice(0, 80)}`);
    assert.equal(await page.evaluate(() => window.__xss), undefined, `script ran for ${line.slice(0, 80)}`);
    assert.equal(await page.locator('.rll img, .rll script, .rll iframe, .rll b, .rll marquee').count(), 0, `markup injected by ${line.slice(0, 80)}`);
    assert.deepEqual(page.errors, [], line.slice(0, 80));
  }
  await page.context().close();
});

test('the app runs under its Content-Security-Policy, which blocks inline scripts', async () => {
  const page = await openPage(lab.browser);
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  await page.goto(`${lab.server.base}?strategy=pool&seed=2&speed=instant`);
  await waitForState(page, 'done');
  const policy = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  const scriptSrc = policy.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
  assert.equal(scriptSrc, "script-src 'self' 'wasm-unsafe-eval'", 'no unsafe-eval, no unsafe-inline for scripts');
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'nothing the app does is blocked');
  // Proof the policy is in force: an inline script is refused.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.head.append(s);
  });
  await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => window.__inline), undefined);
  assert.ok((await page.evaluate(() => window.__csp)).some((v) => v.startsWith('script-src')));
  await page.context().close();
});

test('every control is reachable by keyboard, with a visible focus ring', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?seed=1`);
  await waitForState(page, 'idle');
  const seen = new Set();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const el = document.activeElement;
      const s = getComputedStyle(el);
      return { id: el.dataset.strategy || el.dataset.speed || el.dataset.testid || el.id || el.tagName, outline: s.outlineStyle, width: s.outlineWidth };
    });
    if (info.id === 'BODY') continue; // past the last control, focus leaves the page
    seen.add(info.id);
    assert.notEqual(info.outline, 'none', `focus on ${info.id} is visible`);
  }
  for (const id of ['naive', 'pool', 'instant', '1x', 'seed', 'run']) assert.ok(seen.has(id), `${id} is reachable by Tab`);
  await page.keyboard.press('Escape');
  await page.focus('[data-strategy="paced"]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid="app"]:not([data-run-state="idle"])');
  await page.context().close();
});

async function axe(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

for (const [name, query, ready] of [
  ['run view', '?strategy=timeout-no-key&seed=1&speed=instant&customer=24', '[data-testid="story"]'],
  ['compare view', '?view=compare&seed=1', '[data-testid="compare"]'],
  ['sweep view', '?view=sweep&strategy=keyed&seeds=20', '[data-testid="sweep"][data-state="done"]'],
  ['limits section', '?section=limits&experiment=burst', '[data-testid="limits"][data-state="done"]'],
  ['headers section', '?section=headers', '[data-testid="response-headers"] [data-header]'],
  ['embedded widget', '?embed=1&strategy=pool&seed=2&speed=instant', '[data-testid="widget"][data-run-state="done"]'],
]) {
  for (const scheme of ['light', 'dark']) {
    test(`accessibility: no serious violations in the ${name} (${scheme})`, async () => {
      const page = await openPage(lab.browser, { colorScheme: scheme, viewport: { width: 1200, height: 900 } });
      await page.goto(lab.server.base + query);
      await page.waitForSelector(ready);
      const violations = await axe(page);
      assert.deepEqual(
        violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`),
        [],
      );
      await page.context().close();
    });
  }
}
