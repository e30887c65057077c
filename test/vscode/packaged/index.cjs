// Runs inside the VS Code extension host (extensionTestsPath) for test/vscode/package.test.ts:
// every *.spec.cjs here, against GAI unpacked from its .vsix, with the same runner and JSON
// report as test/vscode/suite/ (GAI_HOST_REPORT, metrics through globalThis.gaiHostMetrics).
'use strict';
/* global __dirname */

const { runSpecs } = require('../suite/index.cjs');

function run() {
  // Longer than the suite's 30 s: the self-check starts tesseract.js (wasm core, language data) cold.
  return runSpecs(__dirname, { timeout: 120000 });
}

module.exports = { run };
