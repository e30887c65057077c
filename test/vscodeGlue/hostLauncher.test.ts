import { strict as assert } from 'node:assert';
import { chooseLauncher } from '../vscode/support/hostLauncher';

describe('in-host suite launcher choice', () => {
  const installed = (path: string): boolean => path === '/opt/vscode/code';

  it('uses @vscode/test-electron with an installed VS Code named by VSCODE_EXECUTABLE', () => {
    assert.deepEqual(chooseLauncher({ VSCODE_EXECUTABLE: '/opt/vscode/code' }, installed), {
      kind: 'electron',
      executable: '/opt/vscode/code',
      why: 'VSCODE_EXECUTABLE=/opt/vscode/code',
    });
  });

  it('falls back to the code-server launcher without one, or when the named file is missing', () => {
    assert.equal(chooseLauncher({}, installed).kind, 'code-server');
    assert.equal(chooseLauncher({ VSCODE_EXECUTABLE: '/nowhere/code' }, installed).kind, 'code-server');
  });

  it('GAI_VSCODE_LAUNCHER forces one, and says what is missing for electron', () => {
    assert.equal(chooseLauncher({ GAI_VSCODE_LAUNCHER: 'code-server', VSCODE_EXECUTABLE: '/opt/vscode/code' }, installed).kind, 'code-server');
    assert.equal(chooseLauncher({ GAI_VSCODE_LAUNCHER: 'electron', VSCODE_EXECUTABLE: '/opt/vscode/code' }, installed).kind, 'electron');
    assert.throws(() => chooseLauncher({ GAI_VSCODE_LAUNCHER: 'electron' }, installed), /needs VSCODE_EXECUTABLE/);
    assert.throws(() => chooseLauncher({ GAI_VSCODE_LAUNCHER: 'browser' }, installed), /expected electron or code-server, got "browser"/);
  });
});
