// The person's choice of how GAI clicks (pointer, or accessibility first) reaches every front
// through the one assembly: the CLI's config file (desktop.input) and its --input-mode flag,
// `gai mcp` from the same config, and the extension's gai.input. Each click below is the real
// stack's over a fake desktop whose "Save" button the tree can press.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { CliStack } from '../../src/cli/cliStack';
import type { ConfigFile } from '../../src/cli/cliConfig';
import type { CliIo } from '../../src/common/cliIo';
import { NullLogger } from '../../src/common/logger';
import { SecretRedactor } from '../../src/common/redact';
import type { AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { ApprovalRequest, ToolRuntime } from '../../src/runtime/toolRuntime';
import { MemoryAppPermissionStore } from '../../src/safety/appPermissionStore';
import { buildGaiParts } from '../../src/vscode/gaiParts';
import { parseSettings } from '../../src/vscode/settings';
import { runCliCaptured, tempDir } from '../support/cliHarness';
import { createFakeDesktop, ocrWords, window, type FakeDesktop } from '../support/fakeDesktop';

type PressDesktop = FakeDesktop & { presses: number };

/** An editor whose "Save" the tree can press; each press shows on the screen (a new colour). */
function saveDesktop(): PressDesktop {
  const fake = Object.assign(createFakeDesktop({ window: window('Editor'), analysis: ocrWords([{ text: 'Save', x: 100, y: 40, w: 40, h: 20 }]) }), { presses: 0 });
  fake.screen.paint({ x: 100, y: 40, width: 40, height: 20 });
  const save: AccessibleElement = { name: 'Save', role: 'push button', bbox: { x: 90, y: 35, width: 60, height: 30 }, states: ['enabled'], ref: ':1.4 /save' };
  fake.accessibility = {
    name: 'fake-tree',
    available: () => Promise.resolve(true),
    elements: () => Promise.resolve([save]),
    perform: (_ref, action) => {
      if (!action.dryRun) {
        fake.presses++;
        fake.screen.paint({ x: 10, y: 500, width: 80, height: 20 }, [0, 40 * fake.presses, 0, 255]);
      }
      return Promise.resolve('click');
    },
  };
  return fake;
}

const QUIET: Pick<ConfigFile, 'safety' | 'apps'> = { safety: { stopHotkey: 'off', failSafeCorner: false, pauseOnTakeover: false }, apps: { allow: ['editor'] } };

function io(): CliIo {
  return { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), interactive: false, env: {} };
}

async function clickSave(runtime: ToolRuntime): Promise<void> {
  const { result } = await runtime.executeWithRecovery({ id: 'c1', name: 'click', input: { text: 'Save' } }, new AbortController().signal);
  assert.equal(result.success, true, result.error);
}

describe('the input choice in every front', function () {
  this.timeout(20_000);

  it('the CLI: desktop.input in the config file presses through the tree for gai click and gai mcp; --input-mode wins over it', async () => {
    const fake = saveDesktop();
    const stack = new CliStack({ io: io(), file: { ...QUIET, desktop: { input: 'accessibility' } }, redactor: new SecretRedactor(), logger: new NullLogger(), warm: 'cold', platform: () => fake });
    try {
      await clickSave(stack.personRuntime().runtime);
      await clickSave(stack.mcpRuntime('full').runtime);
      assert.equal(fake.presses, 2);
      assert.deepEqual(fake.input.calls, [], 'the pointer was never used');
    } finally {
      await stack.dispose();
    }
    const flagged = saveDesktop();
    const overridden = new CliStack({ io: io(), file: { ...QUIET, desktop: { input: 'accessibility' } }, flags: { input: 'pointer' }, redactor: new SecretRedactor(), logger: new NullLogger(), warm: 'cold', platform: () => flagged });
    try {
      await clickSave(overridden.personRuntime().runtime);
      assert.equal(flagged.presses, 0);
      assert.equal(flagged.input.calls.length, 1);
    } finally {
      await overridden.dispose();
    }
  });

  it('the CLI refuses a choice it does not know, in the flag and in the config file, as bad usage', async () => {
    const dir = tempDir();
    try {
      const flag = await runCliCaptured(['--input-mode', 'keyboard', 'tools', '--json'], { XDG_CONFIG_HOME: dir.path });
      assert.equal(flag.code, 2);
      assert.match(flag.stderr, /--input-mode: expected one of pointer, accessibility, got "keyboard"/);
      const config = join(dir.path, 'config.json');
      writeFileSync(config, JSON.stringify({ desktop: { input: 'mouse' } }));
      const file = await runCliCaptured(['--config', config, 'tools', '--json'], { XDG_CONFIG_HOME: dir.path });
      assert.equal(file.code, 2);
      assert.match(file.stderr, /desktop\/input|desktop\.input/);
    } finally {
      dir.remove();
    }
  });

  it('the extension: gai.input "accessibility" presses through the tree, and its approval says the pointer stays', async () => {
    const fake = saveDesktop();
    const dir = tempDir();
    const asked: ApprovalRequest[] = [];
    const values: Record<string, unknown> = { input: 'accessibility', 'apps.allow': ['editor'], 'safety.stopHotkey': 'off', 'safety.failSafeCorner': false, 'safety.pauseOnTakeover': false };
    const parts = buildGaiParts({
      settings: parseSettings((key) => values[key]),
      apiKey: 'test',
      env: {},
      logger: new NullLogger(),
      requestApproval: async (request) => (asked.push(request), 'approve'),
      brainDir: join(dir.path, 'brain'),
      redactor: new SecretRedactor(),
      appPermissionStore: new MemoryAppPermissionStore(),
      appPrompt: async () => 'once',
      platform: () => fake,
    });
    try {
      await clickSave(parts.agentRuntime);
      assert.equal(fake.presses, 1);
      assert.deepEqual(fake.input.calls, []);
      assert.match(asked[0]?.summary ?? '', /through accessibility \(the pointer stays\)$/);
    } finally {
      await parts.dispose();
      dir.remove();
    }
  });
});
