import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import { MacHelper } from '../../../src/platform/macos/macHelper';
import { MAC_COMMANDS, MAC_HELPER_SCRIPT } from '../../../src/platform/macos/macHelperScript';

// The JXA script cannot run here (no osascript): it must at least parse as JavaScript and handle
// every command the client sends; the client's lifecycle is checked against the scripted helper.

const SCRIPT = join(__dirname, 'scriptedMacHelper.mjs');

describe('macOS JXA helper script', () => {
  it('parses as plain JavaScript', () => {
    assert.doesNotThrow(() => new vm.Script(MAC_HELPER_SCRIPT, { filename: 'macHelperScript.jxa' }));
  });

  it('declares a handler for each command the client sends, and no other', () => {
    const table = /var handlers = \{([^}]*)\}/.exec(MAC_HELPER_SCRIPT);
    assert.ok(table, 'the handler table is missing');
    const declared = table[1]!.split(',').map((entry) => entry.split(':')[0]!.trim()).filter(Boolean).sort();
    assert.deepEqual(declared, [...MAC_COMMANDS].sort());
    for (const cmd of MAC_COMMANDS) assert.match(MAC_HELPER_SCRIPT, new RegExp(`function ${cmd}\\(`), `no function ${cmd}`);
  });

  it('answers on stdout only through the one writer, and never reads a secure field\'s value', () => {
    assert.doesNotMatch(MAC_HELPER_SCRIPT, /console\.log/); // console.log goes to stderr in osascript: not the protocol
    assert.match(MAC_HELPER_SCRIPT, /if \(role !== 'AXSecureTextField'\) \{\s*var value/);
  });
});

describe('macOS helper client', () => {
  let dir: string;
  let helper: MacHelper | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-mac-helper-'));
  });
  afterEach(async () => {
    await helper?.dispose();
    helper = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function start(flags: string): MacHelper {
    helper = new MacHelper({ command: process.execPath, args: [SCRIPT, flags], env: { ...process.env, GAI_SCRIPT_STATE: join(dir, 'state') }, idleMs: 0 });
    return helper;
  }

  it('an answer past the timeout fails with the command named, the hung helper is killed and the next call starts a new one', async () => {
    const client = start('slow-windows');
    await assert.rejects(client.request('windows', {}, { timeoutMs: 300 }), /the macOS helper \(osascript\) gave no answer to "windows" within 300 ms/);
    assert.equal(client.pid, undefined);
    const screens = await client.request('screens');
    assert.equal((screens.screens as unknown[]).length, 2);
    assert.equal(client.startCount, 2);
  });

  it('an error answer rejects with the helper\'s message', async () => {
    const client = start('denied');
    await assert.rejects(client.request('elements'), /ACCESSIBILITY_DENIED/);
  });

  it('after two crashes in a row it is not started again for a while, and says why', async () => {
    const client = new MacHelper({ command: process.execPath, args: ['-e', 'process.exit(5)'], idleMs: 0 });
    helper = client;
    await assert.rejects(client.request('windows'), /exited \(code 5\)/);
    await assert.rejects(client.request('windows'), /exited \(code 5\)/);
    await assert.rejects(client.request('windows'), /failed twice in a row; last: .*exited \(code 5\)/);
    assert.equal(client.startCount, 2);
  });

  it('a cancelled request rejects at once; after dispose requests fail', async () => {
    const client = start('slow-windows');
    const controller = new AbortController();
    const pending = client.request('windows', {}, { signal: controller.signal });
    controller.abort();
    await assert.rejects(pending, /cancelled/);
    await client.dispose();
    await assert.rejects(client.request('screens'), /was disposed/);
  });
});
