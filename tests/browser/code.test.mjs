// The code view shows the core's own strategy files, fetched from next to the page, with
// each strategy's one change marked; none of their text is in the page's module.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useLab, openPage, waitForState, ROOT, DIST } from './harness.mjs';

const lab = useLab(before, after);
const STRATEGY_DIR = path.join(ROOT, 'src', 'sim', 'strategy');

test('the build serves the strategy folder byte for byte', () => {
  const files = fs.readdirSync(STRATEGY_DIR).filter((f) => f.endsWith('.rs'));
  assert.ok(files.includes('charge.rs') && files.includes('keyed.rs'));
  for (const f of files) {
    const served = fs.readFileSync(path.join(DIST, 'source', 'strategy', f));
    assert.ok(served.equals(fs.readFileSync(path.join(STRATEGY_DIR, f))), f);
  }
});

test('the code view shows the file the core compiled, its change marked, and the shared loop on demand', async () => {
  const page = await openPage(lab.browser);
  await page.goto(`${lab.server.base}?strategy=keyed&seed=1&speed=instant`);
  await waitForState(page, 'done');
  const code = page.locator('[data-testid="code-view"] code[data-file="src/sim/strategy/keyed.rs"]');
  await code.locator('.rll-line[data-changed]').first().waitFor();
  const lines = await code.locator('.rll-line').allTextContents();
  const file = fs.readFileSync(path.join(STRATEGY_DIR, 'keyed.rs'), 'utf8');
  assert.equal(lines.join(''), file, 'every line of the file, in order');
  const changed = await code.locator('.rll-line[data-changed="true"]').allTextContents();
  assert.ok(changed.length >= 1 && changed.some((l) => l.includes('key')), JSON.stringify(changed));

  // Another strategy: its own file, fetched when picked.
  await page.click('button[data-strategy="naive"]');
  const naive = page.locator('[data-testid="code-view"] code[data-file="src/sim/strategy/naive.rs"]');
  await naive.locator('.rll-line[data-changed]').first().waitFor();
  assert.equal(await naive.locator('.rll-line[data-changed="true"]').count(), 0, 'the first strategy changes nothing');

  // The shared loop arrives when its details open.
  await page.click('[data-testid="code-view"] details summary');
  // The file's own lines carry data-changed; the line that says it is loading does not.
  const shared = page.locator('[data-testid="code-view"] details .rll-line[data-changed]');
  await shared.first().waitFor();
  const loop = (await shared.allTextContents()).join('');
  assert.ok(loop.includes('pub struct ChargeTask'), loop.slice(0, 200));
  assert.ok(!loop.includes('#[cfg(test)]'), 'the tests are left out');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the page module holds none of the strategies\' text', () => {
  const wasm = fs.readFileSync(path.join(DIST, 'rate-limit-lab_bg.wasm'));
  for (const needle of ['pub struct ChargeTask', 'the loop every strategy shares.', 'One key per charge']) {
    assert.equal(wasm.indexOf(Buffer.from(needle)), -1, needle);
  }
});
