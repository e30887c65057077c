// Runs inside the VS Code extension host (extensionTestsPath) for test/vscode/extension.test.ts:
// every *.spec.cjs here, against the real GAI extension. The outcome is written as JSON to
// GAI_HOST_REPORT; specs may add figures (e.g. activation time) to `report.metrics` through
// globalThis.gaiHostMetrics. `runSpecs` is also the runner of test/vscode/packaged/.
'use strict';
/* global __dirname */

const { readdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const Mocha = require('mocha');

/** Every *.spec.cjs in `dir`, in this host; the JSON report goes to GAI_HOST_REPORT (else `dir`/report.json). */
async function runSpecs(dir, { timeout }) {
  const reportPath = process.env.GAI_HOST_REPORT || join(dir, 'report.json');
  const files = readdirSync(dir).filter((name) => name.endsWith('.spec.cjs'));
  const metrics = {};
  globalThis.gaiHostMetrics = metrics;

  // GAI_HOST_GREP runs only the matching tests (for debugging one spec).
  const mocha = new Mocha({ ui: 'bdd', timeout, color: false, reporter: 'spec', ...(process.env.GAI_HOST_GREP ? { grep: process.env.GAI_HOST_GREP } : {}) });
  for (const file of files) mocha.addFile(join(dir, file));

  const report = { files, passes: [], failures: [], pending: [], metrics, startedAt: new Date().toISOString() };
  try {
    await mocha.loadFilesAsync();
  } catch (error) {
    report.failures.push({ title: '(loading test files)', error: String((error && error.stack) || error) });
    writeFileSync(reportPath, JSON.stringify(report, null, 2));
    throw error;
  }
  const failures = await new Promise((resolve) => {
    const runner = mocha.run((count) => resolve(count));
    runner.on('pass', (test) => report.passes.push({ title: test.fullTitle(), durationMs: test.duration }));
    runner.on('fail', (test, error) => report.failures.push({ title: test.fullTitle(), error: String((error && error.stack) || error) }));
    runner.on('pending', (test) => report.pending.push({ title: test.fullTitle() }));
  });
  report.endedAt = new Date().toISOString();
  writeFileSync(reportPath, JSON.stringify(report, null, 2));
  if (failures > 0) throw new Error(`${failures} in-host test(s) failed`);
}

function run() {
  return runSpecs(__dirname, { timeout: 30000 });
}

module.exports = { run, runSpecs };
