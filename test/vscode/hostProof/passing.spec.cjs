// In-host proof: the throwaway extension's command runs and returns its greeting.
'use strict';
/* global describe, it */ // mocha's BDD globals

const assert = require('node:assert/strict');
const vscode = require('vscode');

describe('host proof', () => {
  it('executes the proof extension command', async () => {
    const result = await vscode.commands.executeCommand('gaiHostProof.greet', 'host');
    assert.equal(result, 'hello host');
    const extension = vscode.extensions.getExtension('gai.gai-host-proof');
    assert.ok(extension, 'the proof extension is loaded');
    assert.equal(extension.isActive, true);
  });
});
