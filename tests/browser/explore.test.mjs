// The compare and sweep pages: the compare page as a control panel whose footer command
// prints what it shows, readable row labels with their meaning on hover and keyboard
// focus, links from each column to its run, one card per strategy on a phone, the
// sweep's histograms on axes (a constant as one value), the sweep reporting `done`, and
// each page's own title.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  useLab, openPage, readResults, cli, footerArgs, assertAddress, waitForState, screenshotPath,
} from './harness.mjs';

const lab = useLab(before, after);

/** Asserts that every `compare.<strategy>.<field>` cell equals the CLI's JSON. */
function assertCellsEqual(shown, json, message) {
  assert.equal(json.length, 10, 'ten strategies');
  let cells = 0;
  for (const run of json) {
    for (const [field, value] of Object.entries(run)) {
      if (['strategy', 'seed', 'customers'].includes(field)) continue;
      assert.equal(shown[`compare.${run.strategy}.${field}`], String(value), `${message}: ${run.strategy}.${field}`);
      cells++;
    }
    const perCharge = run.charges ? (Math.round((run.requests * 100) / run.charges) / 100).toFixed(2) : '—';
    assert.equal(shown[`compare.${run.strategy}.requestsPerCharge`], perCharge, `${message}: ${run.strategy}.requestsPerCharge`);
    cells++;
  }
  assert.equal(Object.keys(shown).length, cells, `${message}: every cell is one of the command's numbers`);
}

/** The row headings of the tables under `selector`. */
function rowHeadings(page, selector) {
  return page.$$eval(`${selector} tbody th`, (ths) => ths.map((th) => th.textContent.trim()));
}

/** The tooltip of a row heading: its `::after` content while shown, or null. */
function tipOf(locator) {
  return locator.evaluate((th) => {
    const after = getComputedStyle(th, '::after');
    return after.display === 'none' || after.content === 'none' ? null : after.content.replace(/^"|"$/g, '');
  });
}

test('the compare page reruns as its seed and numbers change, and its footer command prints the same cells', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await page.goto(lab.server.base + '?view=compare&seed=3');
  await waitForState(page, 'done');
  assert.equal((await page.textContent('[data-testid="differs"]')).trim(), "The article's numbers.");
  const before = await readResults(page, '[data-testid="compare"]');
  assertCellsEqual(before, cli(await footerArgs(page)), 'seed 3');

  await page.fill('[data-testid="compare-seed"]', '11');
  await page.click('[data-testid="params"] summary');
  await page.fill('input[data-param="timeoutMs"]', '2500');
  await page.fill('input[data-param="workers"]', '3');
  const args = await footerArgs(page);
  assert.deepEqual(args.slice(0, 4), ['charges', '--all', '--seed', '11']);
  assert.ok(args.join(' ').includes('--timeoutMs 2500') && args.join(' ').includes('--workers 3'), args.join(' '));
  const after = await readResults(page, '[data-testid="compare"]');
  assertCellsEqual(after, cli(args), 'seed 11, timeout 2500 ms, 3 workers');
  assert.notDeepEqual(after, before, 'the cells changed');
  await assertAddress(page, { view: 'compare', seed: '11', timeoutMs: '2500', workers: '3' });
  const note = await page.textContent('[data-testid="differs"]');
  assert.match(note, /Client timeout 2500 ms \(article: 1000 ms\)/);
  assert.match(note, /Pool workers 3 workers \(article: \d+ workers\)/);
  assert.equal(await page.title(), 'All ten strategies on seed 11, 2 numbers changed · rate-limit-lab');

  // A refused value says why beside its field and changes nothing on screen.
  await page.fill('input[data-param="timeoutMs"]', '-1');
  assert.equal(await page.getAttribute('input[data-param="timeoutMs"]', 'aria-invalid'), 'true');
  assert.match(await page.textContent('[data-param-help="timeoutMs"]'), /-1/);
  assert.deepEqual(await readResults(page, '[data-testid="compare"]'), after);
  assert.deepEqual(await footerArgs(page), args);
  // A bad seed is said on the seed field.
  await page.fill('input[data-param="timeoutMs"]', '2500');
  await page.fill('[data-testid="compare-seed"]', 'eleven');
  assert.equal(await page.getAttribute('[data-testid="compare-seed"]', 'aria-invalid'), 'true');
  assert.deepEqual(await footerArgs(page), args);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a compare link with too many customers says so, draws nothing, and runs once the number is lowered', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await page.goto(lab.server.base + '?view=compare&seed=2&customers=30000');
  await page.waitForSelector('[data-testid="compare-problem"]');
  assert.match(await page.textContent('[data-testid="compare-problem"]'), /at most 20,000 customers \(30,000 asked\)/);
  assert.equal(await page.locator('.rll-compare-table').count(), 0, 'no table');
  assert.equal(await page.isVisible('.rll-multiples'), false, 'no empty timelines');
  assert.equal(await page.getAttribute('[data-testid="app"]', 'data-run-state'), 'idle');
  await page.fill('input[data-param="customers"]', '300');
  await waitForState(page, 'done');
  assert.equal(await page.locator('[data-testid="compare-problem"]').isVisible(), false);
  assert.equal(await page.isVisible('.rll-multiples'), true);
  assertCellsEqual(await readResults(page, '[data-testid="compare"]'), cli(await footerArgs(page)), '300 customers');
  await assertAddress(page, { view: 'compare', seed: '2', customers: '300' });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('compare rows have readable labels with their meaning on hover and focus, and each column links to its run', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await page.goto(lab.server.base + '?view=compare&seed=4&maxInflight=8');
  await waitForState(page, 'done');
  const labels = await rowHeadings(page, '.rll-compare-table');
  // A row for every stats field the CLI prints, and one for requests per charge.
  const run = cli(['charges', '--strategy', 'pool', '--seed', '4', '--maxInflight', '8']);
  const fields = Object.keys(run).filter((k) => !['strategy', 'seed', 'customers'].includes(k));
  assert.equal(labels.length, fields.length + 1, labels.join(', '));
  for (const f of fields) assert.equal(await page.locator(`.rll-compare-table tr[data-row="${f}"]`).count(), 1, f);
  assert.ok(labels.includes('409 In progress') && labels.includes('Requests per charge'), labels.join(', '));
  assert.ok(labels.every((l) => !/^[a-z]+[A-Z]/.test(l)), `no JSON names: ${labels.join(', ')}`);

  const row = page.locator('.rll-compare-table tr[data-row="inProgressConflicts"] th');
  assert.equal(await tipOf(row), null, 'the meaning is hidden until asked for');
  await row.hover();
  assert.equal(await tipOf(row), 'same key still running', 'on hover');
  await page.mouse.move(0, 0);
  assert.equal(await tipOf(row), null);
  // Keyboard: Tab from the last column's link lands on the first row's label.
  await page.focus('.rll-compare-table a[data-run-link="adaptive"]');
  await page.keyboard.press('Tab');
  const first = page.locator('.rll-compare-table tbody tr').first().locator('th');
  assert.equal(await first.evaluate((th) => th === document.activeElement), true, 'the label takes focus');
  assert.equal(await tipOf(first), 'reached the provider', 'on focus');

  // Each column heading opens that run, with the same seed and numbers.
  const href = await page.getAttribute('a[data-run-link="timeout-no-key"]', 'href');
  const q = new URLSearchParams(href.slice(href.indexOf('?')));
  assert.deepEqual([q.get('strategy'), q.get('seed'), q.get('maxInflight')], ['timeout-no-key', '4', '8']);
  await page.click('a[data-run-link="timeout-no-key"]');
  await page.waitForSelector('[data-testid="app"][data-view="run"]');
  await assertAddress(page, { strategy: 'timeout-no-key', seed: '4', maxInflight: '8' });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a 375 px phone the compare page shows one card per strategy, none wider than the screen', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 375, height: 740 } });
  await page.goto(lab.server.base + '?view=compare&seed=3');
  await waitForState(page, 'done');
  assert.equal(await page.isVisible('.rll-compare-table'), false, 'no table wider than the screen');
  assert.equal(await page.locator('.rll-compare-card:visible').count(), 10);
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    view: innerWidth,
    cards: [...document.querySelectorAll('.rll-compare-card')].map((c) => [c.scrollWidth, c.clientWidth, c.getBoundingClientRect().right]),
  }));
  assert.ok(widths.page <= widths.view, `the page does not scroll sideways: ${widths.page} > ${widths.view}`);
  for (const [scroll, client, right] of widths.cards) {
    assert.ok(scroll <= client && right <= widths.view, `a card overflows: ${scroll}/${client}, right ${right}`);
  }
  // The cards show the table's numbers.
  const table = await readResults(page, '[data-testid="compare"]');
  const cards = await page.$$eval('[data-card]', (els) => Object.fromEntries(els.map((e) => [e.dataset.card, e.textContent.replace('⚠', '').trim()])));
  assert.deepEqual(cards, table);
  await page.screenshot({ path: screenshotPath('compare-375.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the compare heading and the time axes keep their distance from the table', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await page.goto(lab.server.base + '?view=compare&seed=3');
  await waitForState(page, 'done');
  const gap = await page.evaluate(() => {
    const box = (s) => document.querySelector(s).getBoundingClientRect();
    return {
      belowTable: box('.rll-multiples-title').top - box('.rll-compare-wide').bottom,
      belowHeading: box('.rll-compare-wide').top - box('.rll-see-head h2').bottom,
    };
  });
  assert.ok(gap.belowTable >= 16, `the axes' heading is ${gap.belowTable} px under the table`);
  assert.ok(gap.belowHeading >= 16, `the table is ${gap.belowHeading} px under the heading`);
  await page.screenshot({ path: screenshotPath('compare-1366.png'), fullPage: true });
  await page.context().close();
});

test('the compare page paints its numbers before its pictures, and "Change the numbers" never arrives late', async () => {
  // What exists when the first card is inserted: a MutationObserver's callback runs as
  // soon as the task that inserted it ends, before any later frame or timer.
  const firstFrame = () => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('[data-card^="compare."]')) return;
      observer.disconnect();
      window.atFirstCard = {
        fields: document.querySelectorAll('[data-param]').length,
        timelines: document.querySelectorAll('.rll-multiple canvas').length,
      };
    }).observe(document, { childList: true, subtree: true });
  };
  const seen = {};
  for (const [name, query] of [['folded', '?view=compare&seed=3'], ['open', '?view=compare&seed=3&maxInflight=8']]) {
    const page = await openPage(lab.browser, { viewport: { width: 375, height: 740 } });
    await page.addInitScript(firstFrame);
    await page.goto(lab.server.base + query);
    await waitForState(page, 'done');
    await page.waitForFunction(() => document.querySelectorAll('.rll-multiple canvas').length === 10);
    seen[name] = await page.evaluate(() => ({
      ...window.atFirstCard,
      open: document.querySelector('[data-testid="params"]').open,
      fieldsNow: document.querySelectorAll('[data-param]').length,
    }));
    assert.deepEqual(page.errors, [], name);
    await page.context().close();
  }
  // The ten small timelines come after the first paint on every visit.
  assert.equal(seen.folded.timelines, 0, 'no timeline is built in the first frame');
  assert.equal(seen.open.timelines, 0, 'no timeline is built in the first frame');
  // The fields are the page layer's markup, set in one go: folded or open, every one is
  // there with the first card, so nothing below them moves later.
  assert.equal(seen.folded.open, false);
  assert.equal(seen.open.open, true, 'a changed number opens the panel');
  for (const name of ['folded', 'open']) {
    const { fields, fieldsNow } = seen[name];
    assert.ok(fields > 0 && fields === fieldsNow, `${name}: every field is there with the first card (${fields} of ${fieldsNow})`);
  }
});

test('a sweep reports done, labels its rows, and draws constants as one value and the rest on axes', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 1366, height: 768 } });
  await page.goto(lab.server.base + '?view=sweep');
  await page.waitForSelector('[data-testid="sweep"][data-state="idle"]');
  await waitForState(page, 'idle');
  await page.goto(lab.server.base + '?view=sweep&strategy=paced&seeds=12&customers=300');
  await waitForState(page, 'done');
  assert.equal(await page.getAttribute('[data-testid="sweep"]', 'data-state'), 'done');
  assert.equal(await page.title(), 'Paced over 12 seeds, 1 number changed · rate-limit-lab');

  const json = cli(await footerArgs(page));
  const rows = await page.$$eval('[data-strategy="paced"] tbody tr', (trs) =>
    trs.map((tr) => {
      const hist = tr.querySelector('.rll-hist');
      const path = hist.querySelector('.rll-hist-bars')?.getAttribute('d') ?? '';
      return {
        field: tr.querySelector('[data-result$=".min"]').dataset.result.split('.')[2],
        label: tr.querySelector('th').textContent.trim(),
        kind: hist.dataset.hist,
        // The element's own text (the svg's title is its accessible name, not shown).
        text: [...hist.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('').trim(),
        min: hist.dataset.min,
        max: hist.dataset.max,
        ys: [...path.matchAll(/V(\d+)H/g)].map((m) => Number(m[1])),
        xs: [...path.matchAll(/M(\d+) /g)].map((m) => Number(m[1])),
        shown: getComputedStyle(hist, '::before').content,
      };
    }),
  );
  assert.equal(rows.length, 8);
  const kinds = new Set();
  for (const r of rows) {
    const d = json.fields[r.field];
    assert.ok(!/^[a-z]+[A-Z]/.test(r.label) && r.label !== r.field, `a readable label for ${r.field}: ${r.label}`);
    kinds.add(r.kind);
    if (d.min === d.max) {
      assert.equal(r.kind, 'constant', `${r.field} is the same in every run`);
      assert.equal(r.text, `${d.min} in all 12 runs`);
    } else {
      assert.equal(r.kind, 'bars', r.field);
      assert.deepEqual([r.min, r.max], [String(d.min), String(d.max)], `${r.field}: the value axis runs from min to max`);
      assert.equal(r.shown, `"${d.min}"`, `${r.field}: the axis's left label is drawn`);
      assert.ok(r.ys.includes(0), `${r.field}: the tallest bar reaches the top`);
      assert.ok(Math.min(...r.xs) === 0, `${r.field}: the smallest value's bar starts the axis`);
      assert.ok(Number(r.text) >= 1 && Number(r.text) <= 12, `${r.field}: the count axis is topped by the tallest bar's runs`);
    }
  }
  assert.deepEqual([...kinds].sort(), ['bars', 'constant'], 'this sweep has both kinds');
  // A label's meaning shows on focus.
  const th = page.locator('[data-strategy="paced"] tbody th').first();
  await th.focus();
  assert.ok((await tipOf(th))?.length > 3, 'the meaning shows on focus');
  await page.screenshot({ path: screenshotPath('sweep-1366.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a parameter sweep reports done too, and the sweep page fits a phone', async () => {
  const page = await openPage(lab.browser, { viewport: { width: 375, height: 740 } });
  await page.goto(lab.server.base + '?view=sweep&strategy=pool&param=workers&from=1&to=4&steps=4&stat=elapsedMs&seeds=2&customers=100');
  await waitForState(page, 'done');
  assert.equal(await page.getAttribute('[data-testid="psweep"]', 'data-state'), 'done');
  assert.equal(await page.title(), 'Elapsed (ms) against Pool workers, 1 number changed · rate-limit-lab');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  await page.screenshot({ path: screenshotPath('sweep-375.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('each page has its own title, and the static page carries the preview words', async () => {
  const page = await openPage(lab.browser);
  const res = await page.goto(lab.server.base + 'compare.html?view=compare&seed=9');
  const html = await res.text();
  for (const property of ['og:title', 'og:description', 'og:site_name']) {
    assert.match(html, new RegExp(`<meta property="${property}" content="[^"]+"`), property);
  }
  await waitForState(page, 'done');
  const titles = { compare: await page.title() };
  for (const [name, query] of [['run', '?strategy=keyed&seed=4&speed=instant'], ['limits', '?section=limits'], ['headers', '?section=headers']]) {
    await page.goto(lab.server.base + query);
    await page.waitForSelector('[data-testid="app"]');
    await page.waitForFunction(() => !document.title.startsWith('A thousand'));
    titles[name] = await page.title();
  }
  assert.equal(titles.compare, 'All ten strategies on seed 9 · rate-limit-lab');
  assert.match(titles.run, /^Keyed on seed 4 · rate-limit-lab$/);
  assert.equal(new Set(Object.values(titles)).size, 4, JSON.stringify(titles));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
