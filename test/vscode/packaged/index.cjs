// Runs inside the VS Code extension host (extensionTestsPath) for test/vscode/package.test.ts:
// every *.spec.cjs here, against GAI unpacked from its .vsix. The outcome goes as JSON to
// GAI_HOST_REPORT; specs add what they measured to `report.metrics` (globalThis.gaiHostMetrics).
'use strict';
/* global __dirname */

const { readdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const Mocha = require('mocha');

async function run() {
  const reportPath = process.env.GAI_HOST_REPORT || join(__dirname, 'report.json');
  const files = readdirSync(__dirname).filter((name) => name.endsWith('.spec.cjs'));
  const metrics = {};
  globalThis.gaiHostMetrics = metrics;
  const mocha = new Mocha({ ui: 'bdd', timeout: 120000, color: false, reporter: 'spec' });
  for (const file of files) mocha.addFile(join(__dirname, file));
  const report = { files, passes: [], failures: [], metrics };
  try {
    await mocha.loadFilesAsync();
    const failures = await new Promise((resolve) => {
      const runner = mocha.run((count) => resolve(count));
      runner.on('pass', (test) => report.passes.push({ title: test.fullTitle(), durationMs: test.duration }));
      runner.on('fail', (test, error) => report.failures.push({ title: test.fullTitle(), error: String((error && error.stack) || error) }));
    });
    if (failures > 0) throw new Error(`${failures} in-host test(s) failed`);
  } catch (error) {
    if (report.failures.length === 0) report.failures.push({ title: '(loading or running)', error: String((error && error.stack) || error) });
    throw error;
  } finally {
    writeFileSync(reportPath, JSON.stringify(report, null, 2));
  }
}

module.exports = { run };
