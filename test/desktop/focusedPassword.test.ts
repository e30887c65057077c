// type_text into a real GTK password entry (AT-SPI role `password text`) on the suite display:
// the focused element is read from the tree, and whatever is typed there is shown only as its
// length, while the entry receives the real text.
import { strict as assert } from 'node:assert';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BBox, ToolCall } from '../../src/core/types';
import { AtspiAccessibility } from '../../src/desktop/adapters/atspiAccessibility';
import { createPlatformDesktop } from '../../src/desktop/adapters/platformDesktop';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import { MemoryLogger } from '../../src/logging/logger';
import { TypeTextTool } from '../../src/tools/desktop/typeTextTool';
import { ToolPolicy } from '../../src/tools/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime } from '../../src/tools/toolRuntime';
import { FIXTURE_PYTHON, suiteDisplay } from './support/fixture';

const display = suiteDisplay();
const GTK_APP = path.resolve(__dirname, 'fixtures', 'gtkPasswordApp.py');
/** No key shape: only the focused field can tell it is secret. */
const TYPED = 'plain words 42';

function xdotool(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('xdotool', args, { env: display.env }, (error) => (error ? reject(error) : resolve()));
  });
}

async function clickInto(box: BBox): Promise<void> {
  await xdotool(['mousemove', String(box.x + Math.round(box.width / 2)), String(box.y + Math.round(box.height / 2)), 'click', '1']);
}

describe('type_text into a focused GTK password entry (AT-SPI)', function () {
  this.timeout(60_000);
  let gtk: ChildProcess | undefined;
  let dir: string | undefined;

  before(function () {
    const probe = spawnSync(FIXTURE_PYTHON, ['-c', 'import gi; gi.require_version("Gtk", "3.0"); gi.require_version("Atspi", "2.0")'], { env: display.env });
    if (probe.status !== 0) {
      this.test!.parent!.title += ' (skipped: python3-gi with GTK 3 and AT-SPI is not installed; apt-get install gir1.2-gtk-3.0 gir1.2-atspi-2.0)';
      this.skip();
    }
  });
  after(() => {
    gtk?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads the focus from the tree and masks what is typed into the password entry only', async function () {
    dir = mkdtempSync(path.join(tmpdir(), 'gai-gtk-focus-'));
    const log = path.join(dir, 'events.jsonl');
    writeFileSync(log, '');
    const env: NodeJS.ProcessEnv = { ...display.env };
    // The app must register on this display's a11y bus, not on one named for another session.
    delete env.AT_SPI_BUS_ADDRESS;
    delete env.NO_AT_BRIDGE;
    gtk = spawn(FIXTURE_PYTHON, [GTK_APP, '--log', log, '--title', 'GAI Focus Test'], { env, stdio: 'ignore' });
    const events = (): Array<Record<string, unknown>> => readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const waitFor = async (test: (e: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
        const found = events().find(test);
        if (found) return found;
      }
      throw new Error(`the GTK fixture did not log the event; it logged: ${JSON.stringify(events())}`);
    };
    const ready = (await waitFor((e) => e.event === 'ready')) as { widgets: Record<string, BBox> };
    const tree = new AtspiAccessibility(env);
    if (!(await tree.available())) this.skip(); // the suite's AT-SPI check (accessibility.test.ts) says why

    await clickInto(ready.widgets.user_entry!);
    assert.equal((await tree.focusedElement())?.role, 'text');
    await clickInto(ready.widgets.password_entry!);
    const focused = await tree.focusedElement();
    assert.equal(focused?.role, 'password text', JSON.stringify(focused));
    assert.ok(focused?.states.includes('focused'));

    const logger = new MemoryLogger();
    const registry = new ToolRegistry(logger);
    registry.register(new TypeTextTool(createDesktopServices(createPlatformDesktop({ env }))));
    const runtime = new ToolRuntime(registry, { policy: new ToolPolicy({ profile: 'full' }), logger, autoApprove: ['read', 'action', 'system'] });
    const seen: ToolCall[] = [];
    const { result } = await runtime.executeWithRecovery({ id: 'c1', name: 'type_text', input: { text: TYPED, delay: 10 } }, new AbortController().signal, {
      onToolStarted: (call) => seen.push(call),
      onToolFinished: (call) => seen.push(call),
    });
    assert.equal(result.success, true, result.error);
    await waitFor((e) => e.event === 'text' && e.widget === 'password_entry' && e.value === TYPED);
    assert.deepEqual(seen.map((c) => (c.input as { text: string }).text), ['••••• (14 characters)', '••••• (14 characters)']);
    assert.ok(!JSON.stringify([seen, logger.lines, result.observation]).includes('plain words'));
  });
});
