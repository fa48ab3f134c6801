// Every figure of the outage under steady traffic in README.md and docs/traffic.md is a
// table written by scripts/outage-figures.mjs from `ratelab charges --outage … --json`;
// this runs the script's check, so a table that no longer matches the CLI fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FILES } from '../../scripts/outage-figures.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

test('the outage tables in the docs are what the CLI measures', () => {
  const out = execFileSync('node', [path.join(ROOT, 'scripts', 'outage-figures.mjs'), '--check'], {
    encoding: 'utf8',
  });
  assert.match(out, /every outage table matches the CLI/);
});

test('a figure changed by hand is caught and named', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'outage-figures-'));
  fs.mkdirSync(path.join(root, 'docs'));
  for (const file of Object.keys(FILES)) fs.copyFileSync(path.join(ROOT, file), path.join(root, file));
  const file = path.join(root, 'docs', 'traffic.md');
  const text = fs.readFileSync(file, 'utf8');
  // The keys table's first row, with its requests per customer changed.
  const row = text.split('\n').find((l) => l.startsWith('| at the door, at once |'));
  assert.ok(row, 'the keys table has its door row');
  fs.writeFileSync(file, text.replace(row, row.replace(/\| (\d+\.\d\d) \|/, '| 9.99 |')));
  const run = spawnSync('node', [path.join(ROOT, 'scripts', 'outage-figures.mjs'), '--check'], {
    encoding: 'utf8',
    env: { ...process.env, DOCS_ROOT: root },
  });
  assert.equal(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stderr, /docs\/traffic\.md: outage-keys/);
  assert.doesNotMatch(run.stderr, /outage-strategies/);
  fs.rmSync(root, { recursive: true });
});
