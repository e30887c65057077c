import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import type { ToolResult } from '../../src/tools/toolTypes';
import { NutInput } from '../../src/platform/nut/nutInput';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { launchFixture, suiteDisplay, type Fixture, type FixtureEvent, type WidgetGeometry } from './support/fixture';

// GAI's finer pointer and keyboard tools (screen pixels) and the new input port calls, on the
// suite's Xvfb against the Tk fixture; what the fixture logged is the evidence.

const display = suiteDisplay();

describe('pointer tools and input port on a real X display (Tk fixture)', function () {
  this.timeout(60_000);
  let rig: DesktopRig;
  let app: Fixture | undefined;

  before(() => {
    rig = createDesktopRig(display.env);
  });
  after(async () => {
    await rig.dispose();
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    rig.services.reader.reset();
  });

  const ok = async (name: string, input: unknown): Promise<ToolResult> => {
    const result = await rig.run(name, input);
    assert.equal(result.success, true, `${name} ${JSON.stringify(input)}: ${result.error}`);
    return result;
  };
  const centre = (w: WidgetGeometry, dx = w.width / 2): { x: number; y: number } => ({ x: Math.round(w.x + dx), y: Math.round(w.y + w.height / 2) });
  const event = (name: string, widget: string) => (e: FixtureEvent) => e.event === name && e.widget === widget;

  it('drag moves the slider; click with clicks: 3 selects the whole entry; modifiers are held', async () => {
    app = await launchFixture(display);
    const scale = app.widget('level_scale');
    await ok('drag', { from: centre(scale, 14), to: centre(scale, scale.width / 2) });
    const moved = await app.waitFor((e) => event('scale', 'level_scale')(e) && Number(e.value) >= 35, 5000);
    assert.ok(Number(moved.value) <= 65, `dragged to the middle: ${JSON.stringify(moved)}`);

    const name = app.widget('name_entry');
    await ok('click', centre(name));
    await ok('type_text', { text: 'one two three' });
    await app.waitFor((e) => event('text', 'name_entry')(e) && e.value === 'one two three');
    await ok('click', { ...centre(name, 8), clicks: 3 });
    await ok('type_text', { text: 'X' });
    await app.waitFor((e) => event('text', 'name_entry')(e) && e.value === 'X', 5000);

    await ok('click', { ...centre(app.widget('apply_button')), modifiers: ['ctrl'] });
    const click = await app.waitFor(event('click', 'apply_button'));
    assert.deepEqual(click.state, ['Control']);
  });

  it('mouse_move then cursor_position; hold_key reaches the window and lets go', async () => {
    app = await launchFixture(display);
    await ok('mouse_move', { to: { x: 640, y: 480 } });
    const where = await ok('cursor_position', {});
    assert.deepEqual((where.data as { point: unknown }).point, { x: 640, y: 480 });
    await ok('click', centre(app.widget('email_entry')));
    await ok('hold_key', { key: 'shift', seconds: 0.2 });
    await app.waitFor((e) => e.event === 'key' && e.keysym === 'Shift_L');
    await ok('press_key', { key: 'b' });
    const b = await app.waitFor((e) => e.event === 'key' && e.keysym === 'b');
    assert.deepEqual(b.state, [], 'shift was released');
  });

  it('NutInput reports the pointer in screen pixels on a scaled display (HiDPI)', async () => {
    const input = new NutInput(async () => 2, 'linux');
    execFileSync('xdotool', ['mousemove', '300', '200'], { env: display.env });
    assert.deepEqual(await input.position(), { x: 600, y: 400 });
  });
});
