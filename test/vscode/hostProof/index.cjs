// Runs inside the VS Code extension host: the module `extensionTestsPath` points to. The
// workbench calls run() once the extension host is up and exits with 0 when it resolves, 1 when
// it rejects. Console output from here arrives unformatted, so the outcome is (also) written as
// JSON to GAI_HOST_REPORT (default: report.json next to this file).
// GAI_HOST_TESTS: which test files to run, comma-separated names in this folder (default: all
// *.spec.cjs here).
'use strict';
/* global __dirname */

const { readdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const Mocha = require('mocha');

async function run() {
  const reportPath = process.env.GAI_HOST_REPORT || join(__dirname, 'report.json');
  const wanted = (process.env.GAI_HOST_TESTS || '').split(',').map((name) => name.trim()).filter(Boolean);
  const files = wanted.length > 0 ? wanted : readdirSync(__dirname).filter((name) => name.endsWith('.spec.cjs'));

  const mocha = new Mocha({ ui: 'bdd', timeout: 20000, color: false, reporter: 'spec' });
  for (const file of files) mocha.addFile(join(__dirname, file));

  const report = { files, passes: [], failures: [], pending: [], startedAt: new Date().toISOString() };
  try {
    await mocha.loadFilesAsync();
  } catch (error) {
    report.failures.push({ title: '(loading test files)', error: String(error && error.stack || error) });
    writeFileSync(reportPath, JSON.stringify(report, null, 2));
    throw error;
  }
  const failures = await new Promise((resolve) => {
    const runner = mocha.run((count) => resolve(count));
    runner.on('pass', (test) => report.passes.push({ title: test.fullTitle(), durationMs: test.duration }));
    runner.on('fail', (test, error) =>
      report.failures.push({ title: test.fullTitle(), error: String(error && error.message || error) }),
    );
    runner.on('pending', (test) => report.pending.push({ title: test.fullTitle() }));
  });
  report.endedAt = new Date().toISOString();
  writeFileSync(reportPath, JSON.stringify(report, null, 2));
  if (failures > 0) throw new Error(`${failures} in-host test(s) failed`);
}

module.exports = { run };
