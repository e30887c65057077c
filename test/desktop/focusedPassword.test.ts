// type_text into a real GTK password entry (AT-SPI role `password text`) on the suite display:
// the focused element is read from the tree, and whatever is typed there is shown only as its
// length, while the entry receives the real text.
import { strict as assert } from 'node:assert';
import type { BBox } from '../../src/common/geometry';
import type { ToolCall } from '../../src/model/messages';
import { AtspiAccessibility } from '../../src/platform/linux/atspi/atspiAccessibility';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import { MemoryLogger } from '../../src/common/logger';
import { TypeTextTool } from '../../src/tools/desktop/typeTextTool';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { suiteDisplay } from './support/fixture';
import { clickCentre, gtkFixtureMissing, startGtkPasswordApp, type GtkPasswordApp } from './support/gtkPasswordFixture';

const display = suiteDisplay();
/** No key shape: only the focused field can tell it is secret. */
const TYPED = 'plain words 42';

const clickInto = (box: BBox): Promise<void> => clickCentre(display, box);

describe('type_text into a focused GTK password entry (AT-SPI)', function () {
  this.timeout(60_000);
  let gtk: GtkPasswordApp | undefined;

  before(function () {
    const missing = gtkFixtureMissing(display);
    if (missing) {
      this.test!.parent!.title += ` (skipped: ${missing})`;
      this.skip();
    }
  });
  after(() => gtk?.stop());

  it('reads the focus from the tree and masks what is typed into the password entry only', async function () {
    gtk = await startGtkPasswordApp(display, { title: 'GAI Focus Test' });
    const { env, waitFor } = gtk;
    const ready = { widgets: gtk.widgets };
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
