import { strict as assert } from 'node:assert';
import type { ToolResult } from '../../src/tools/toolTypes';
import type { Point } from '../../src/desktop/ports/inputPort';
import { ComputerDisplay, toImagePoint, type DisplayGeometry } from '../../src/tools/desktop/computer/computerDisplay';
import { ComputerTool } from '../../src/tools/desktop/computerTool';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { launchFixture, suiteDisplay, type Fixture, type FixtureEvent, type WidgetGeometry } from './support/fixture';

// The `computer` tool on the real X display (Xvfb + openbox) against the Tk fixture: every
// action is checked by what the fixture logged, in screenshot coordinates the way a model
// sends them (the screenshot is scaled to the default image limits).

const display = suiteDisplay();

describe('computer tool on a real X display (Tk fixture)', function () {
  this.timeout(60_000);
  let rig: DesktopRig;
  let app: Fixture | undefined;
  let geometry: DisplayGeometry;

  before(async () => {
    rig = createDesktopRig(display.env);
    const screen = new ComputerDisplay(rig.services.desktop.screen);
    rig.runtime.registry.register(new ComputerTool(rig.services, screen));
    geometry = await screen.geometry();
  });
  after(async () => {
    await rig.dispose();
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    rig.services.reader.reset();
  });

  const computer = async (input: Record<string, unknown>): Promise<ToolResult> => {
    const result = await rig.run('computer', input);
    assert.equal(result.success, true, `${JSON.stringify(input)}: ${result.error}`);
    return result;
  };
  /** Where a model would aim at a widget: its centre, in screenshot pixels. */
  const aim = (widget: WidgetGeometry, dx = widget.width / 2): [number, number] => {
    const p = toImagePoint({ x: Math.round(widget.x + dx), y: Math.round(widget.y + widget.height / 2) }, geometry);
    return [p.x, p.y];
  };
  const event = (name: string, widget: string) => (e: FixtureEvent) => e.event === name && e.widget === widget;

  it('left_click at a screenshot coordinate lands on the widget there', async () => {
    app = await launchFixture(display);
    assert.ok(geometry.image.width <= 1568 && geometry.image.width * geometry.image.height <= 1_150_000, JSON.stringify(geometry));
    const result = await computer({ action: 'left_click', coordinate: aim(app.widget('cancel_button')) });
    await app.waitFor(event('click', 'cancel_button'));
    assert.equal(app.events().filter((e) => e.event === 'click').length, 1);
    assert.match(result.observation, /in the screenshot = \(\d+, \d+\) on the screen/);
  });

  it('triple_click selects the line of an entry (typing then replaces it)', async () => {
    app = await launchFixture(display);
    const name = app.widget('name_entry');
    await computer({ action: 'left_click', coordinate: aim(name) });
    await computer({ action: 'type', text: 'hello wide world' });
    await app.waitFor((e) => event('text', 'name_entry')(e) && e.value === 'hello wide world');
    await computer({ action: 'triple_click', coordinate: aim(name, 10) });
    await computer({ action: 'type', text: 'Z' });
    await app.waitFor((e) => event('text', 'name_entry')(e) && e.value === 'Z', 5000);
  });

  it('left_click_drag moves the slider', async () => {
    app = await launchFixture(display);
    const scale = app.widget('level_scale');
    // The slider starts at the left end of the trough (value 0).
    await computer({ action: 'left_click_drag', start_coordinate: aim(scale, 14), coordinate: aim(scale, scale.width - 14) });
    const moved = await app.waitFor((e) => event('scale', 'level_scale')(e) && Number(e.value) >= 80, 5000);
    assert.ok(Number(moved.value) >= 80, JSON.stringify(moved));
  });

  it('zoom returns the region at full resolution', async () => {
    app = await launchFixture(display);
    const result = await computer({ action: 'zoom', region: [100, 100, 300, 200] });
    const data = result.data as { width: number; height: number; screenRegion: { width: number; height: number } };
    assert.deepEqual([data.width, data.height], [data.screenRegion.width, data.screenRegion.height]);
    assert.ok(Math.abs(data.screenRegion.width - 200 / geometry.scale) <= 2, JSON.stringify(data));
    assert.ok(Math.abs(data.screenRegion.height - 100 / geometry.scale) <= 2, JSON.stringify(data));
    assert.equal(result.images?.length, 1);
  });

  it('key and hold_key reach the window; a held key is released afterwards', async () => {
    app = await launchFixture(display);
    await computer({ action: 'left_click', coordinate: aim(app.widget('email_entry')) });
    await computer({ action: 'key', text: 'ctrl+s' });
    await app.waitFor((e) => e.event === 'key' && e.keysym === 's' && (e.state as string[]).includes('Control'));
    await computer({ action: 'hold_key', text: 'shift', duration: 0.3 });
    await app.waitFor((e) => e.event === 'key' && e.keysym === 'Shift_L');
    await computer({ action: 'key', text: 'a' });
    const a = await app.waitFor((e) => e.event === 'key' && e.keysym === 'a');
    assert.deepEqual(a.state, [], 'shift was released');
    await app.waitFor((e) => event('text', 'email_entry')(e) && String(e.value).endsWith('a'));
  });

  it('scroll at a coordinate, with a modifier held', async () => {
    app = await launchFixture(display);
    const list = aim(app.widget('item_list'));
    await computer({ action: 'scroll', coordinate: list, scroll_direction: 'down', scroll_amount: 3 });
    await app.waitFor((e) => event('scroll', 'item_list')(e) && e.direction === 'down');
    // Tk reads Shift + wheel as sideways scrolling: the fixture logs it as "left".
    await computer({ action: 'scroll', coordinate: list, scroll_direction: 'up', scroll_amount: 1, text: 'shift' });
    await app.waitFor((e) => event('scroll', 'item_list')(e) && e.direction === 'left');
  });

  it('cursor_position after mouse_move returns the point', async () => {
    app = await launchFixture(display);
    const target: Point = { x: 321, y: 234 };
    await computer({ action: 'mouse_move', coordinate: [target.x, target.y] });
    const result = await computer({ action: 'cursor_position' });
    assert.deepEqual({ x: (result.data as Point).x, y: (result.data as Point).y }, target);
  });
});
