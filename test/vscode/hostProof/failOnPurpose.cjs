// In-host proof that failures surface: this test fails on purpose (not a .spec.cjs: runs only when GAI_HOST_TESTS names it).
'use strict';
/* global describe, it */ // mocha's BDD globals

const assert = require('node:assert/strict');
const vscode = require('vscode');

describe('host proof', () => {
  it('fails on purpose', async () => {
    const result = await vscode.commands.executeCommand('gaiHostProof.greet', 'host');
    assert.equal(result, 'not the greeting');
  });
});
