// In-host tests of GAI installed from its .vsix (run by test/vscode/package.test.ts): the
// extension runs from the unpacked folder in GAI_PACKAGED_EXTENSION, and its self-check must
// find every native part there, with no repository node_modules to fall back on.
'use strict';
/* global describe, it, before */ // mocha's BDD globals

const assert = require('node:assert/strict');
const { readFileSync, realpathSync } = require('node:fs');
const { join, sep } = require('node:path');
const vscode = require('vscode');

const packaged = process.env.GAI_PACKAGED_EXTENSION;
const manifest = JSON.parse(readFileSync(join(packaged, 'package.json'), 'utf8'));
const EXTENSION_ID = `${manifest.publisher}.${manifest.name}`;

describe('GAI installed from the .vsix', () => {
  let extension;
  let api;

  before(async () => {
    extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    api = await extension.activate();
  });

  it('runs from the unpacked package, not from a checkout', () => {
    assert.equal(realpathSync(extension.extensionPath), realpathSync(packaged));
    assert.equal(extension.isActive, true);
  });

  it('registers every command declared in its manifest', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const declared = manifest.contributes.commands.map((command) => command.command);
    assert.deepEqual(declared.filter((id) => !registered.has(id)), []);
  });

  it('self-check: loads libnut and sharp and reads the OCR sample, all from the package', async () => {
    const report = await api.checkSetup();
    globalThis.gaiHostMetrics.setup = report;
    const inside = realpathSync(packaged) + sep;
    assert.equal(report.nut.ok, true, `nut-js: ${report.nut.detail}`);
    assert.ok(realpathSync(report.nut.nativeModule).startsWith(inside), `libnut loaded from ${report.nut.nativeModule}`);
    assert.equal(report.sharp.ok, true, `sharp: ${report.sharp.detail}`);
    if (process.platform === 'linux') {
      // What the process has really loaded: sharp's addon and libvips, from the package.
      const mapped = readFileSync('/proc/self/maps', 'utf8').split('\n').map((line) => line.slice(line.indexOf('/')));
      for (const library of [/\/sharp-[^/]+\.node$/, /\/libvips-cpp\.so[.\d]*$/]) {
        const file = mapped.find((path) => library.test(path));
        assert.ok(file && realpathSync(file).startsWith(inside), `${library} mapped from ${file}`);
      }
    }
    assert.equal(report.ocr.ok, true, `OCR: ${report.ocr.detail}`);
    assert.match(report.ocr.text, /^GA.{1,2} ?2\+2$/);
    assert.equal(report.ok, true);
  });

  it('loads the agent bundle on the first chat message (no key: says how to set one)', async () => {
    assert.equal(api.simulateWebviewMessage({ type: 'send', text: 'hello' }), true);
    const deadline = Date.now() + 20000;
    let problem;
    while (!(problem = api.chatEntries().find((e) => e.kind === 'error')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(problem, 'an answer in the chat');
    assert.match(problem.text, /No API key for Anthropic: set one with Set API Key/);
    assert.deepEqual((problem.actions ?? []).map((action) => action.kind).sort(), ['retry', 'setApiKey']);
  });
});
