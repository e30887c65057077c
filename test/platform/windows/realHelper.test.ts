import { strict as assert } from 'node:assert';
import { UiaHelper } from '../../../src/platform/windows/uiaHelper';
import { createWindowsPorts } from '../../../src/platform/windows/windowsDesktop';

// The real PowerShell helper, only on Windows (the public CI's Windows runner): it starts, its
// C# compiles with Add-Type, and each command answers in the shape the ports read. Skipped
// elsewhere; the scripted-helper tests cover the ports' logic.

const onWindows = process.platform === 'win32';

describe('the real UI Automation helper (Windows only)', function () {
  this.timeout(120_000);
  let helper: UiaHelper | undefined;

  before(function () {
    if (!onWindows) this.skip();
  });
  afterEach(async () => {
    await helper?.dispose();
    helper = undefined;
  });

  it('starts, is DPI aware and answers every read-only command', async () => {
    helper = new UiaHelper({ idleMs: 0, startTimeoutMs: 90_000 });
    const hello = await helper.start();
    assert.equal(hello.hello, 'gai-uia');
    assert.equal(hello.dpiAware, true);
    const screen = await helper.request('screen');
    assert.ok((screen.screen as { width: number }).width > 0);
    assert.ok((screen.primary as { width: number }).width > 0);
    assert.ok(Array.isArray((await helper.request('windows')).windows));
    assert.ok('windowId' in (await helper.request('activeId')));
    const input = await helper.request('input');
    assert.equal(typeof input.lastInput, 'number');
    assert.ok(Array.isArray((await helper.request('elements', { activeOnly: false }, { timeoutMs: 60_000 })).elements));
    assert.ok('focused' in (await helper.request('focused')));
    await assert.rejects(helper.request('perform', { ref: 'g0e0', dryRun: true }), /not from the last reading of the tree/);
  });

  it('registers a stop hotkey (or says another program holds it) and releases it', async () => {
    const ports = createWindowsPorts(process.env, { idleMs: 0 });
    try {
      const warnings: string[] = [];
      const watch = await ports.interrupts.watch(
        { stopHotkey: { modifiers: ['ctrl', 'alt', 'shift'], key: 'f11' }, failSafeCorner: true, watchInput: true },
        { onStop: () => {}, onWarning: (m) => warnings.push(m) },
      );
      assert.ok(watch.capabilities.hotkey || /held by another program/.test(warnings[0] ?? ''), warnings.join('; '));
      assert.equal(watch.capabilities.corner, true);
      assert.equal(typeof (await watch.activity()).keys, 'number');
      await watch.close();
    } finally {
      await ports.dispose();
    }
  });
});
