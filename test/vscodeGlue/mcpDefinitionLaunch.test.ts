// How the editor starts GAI's MCP server: the editor's own Node (Electron told to run as Node),
// dist/mcpServer.js with the chosen profile, the extension's brain, and the model key by provider.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { gaiMcpServerLaunch, modelEnv } from '../../src/vscode/lm/mcpDefinitionLaunch';

describe('the MCP server definition GAI offers the editor', () => {
  const sources = { extensionPath: '/ext/gai', execPath: '/opt/code/code', electron: true, profile: 'read-only' as const, brainDir: '/state/gai', extensionVersion: '0.1.0' };

  it('desktop VS Code: its Electron binary runs dist/mcpServer.js as Node, with the profile and the brain', () => {
    const launch = gaiMcpServerLaunch(sources);
    assert.equal(launch.command, '/opt/code/code');
    assert.deepEqual(launch.args, [join('/ext/gai', 'dist', 'mcpServer.js'), '--profile', 'read-only']);
    assert.deepEqual(launch.env, { ELECTRON_RUN_AS_NODE: '1', GAI_BRAIN_DIR: '/state/gai' });
  });

  it('a Node-based server host: node itself, no Electron variable; a new profile is a new version', () => {
    const launch = gaiMcpServerLaunch({ ...sources, execPath: '/usr/bin/node', electron: false, profile: 'full' });
    assert.equal(launch.command, '/usr/bin/node');
    assert.deepEqual(launch.env, { GAI_BRAIN_DIR: '/state/gai' });
    assert.notEqual(launch.version, gaiMcpServerLaunch(sources).version);
  });

  it("gai.desktop own: the server works on GAI's own desktop, the one the live view shows", () => {
    const own = gaiMcpServerLaunch({ ...sources, desktop: 'own' });
    assert.deepEqual(own.args, [join('/ext/gai', 'dist', 'mcpServer.js'), '--desktop', 'own', '--profile', 'read-only']);
    assert.notEqual(own.version, gaiMcpServerLaunch(sources).version, 'the editor restarts the server when the desktop changes');
    assert.deepEqual(gaiMcpServerLaunch({ ...sources, desktop: 'screen' }).args, gaiMcpServerLaunch(sources).args);
  });

  it("the key goes under its provider's variable, with the base URL when set", () => {
    assert.deepEqual(modelEnv('anthropic', 'k1', 'http://127.0.0.1:9'), { ANTHROPIC_API_KEY: 'k1', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });
    assert.deepEqual(modelEnv('openai', 'k2', undefined), { OPENAI_API_KEY: 'k2' });
    assert.deepEqual(modelEnv('google', undefined, undefined), {});
  });
});
