// GAI's own desktop seen from a process whose DISPLAY is another one (the VS Code extension host on
// the person's desktop): the platform desktop reads its screen from Xvfb's framebuffer file and
// sends input through xdotool there, and the person's display (the suite's) keeps its pointer.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { FRAMEBUFFER_VAR, FramebufferScreen } from '../../src/platform/linux/x11/framebufferScreen';
import { VirtualDisplay } from '../../src/platform/linux/x11/virtualDisplay';
import type { Desktop } from '../../src/desktop/ports/desktop';
import { launchFixture, suiteDisplay, type Fixture } from './support/fixture';

describe("GAI's own desktop from a process on another display (framebuffer screen, xdotool input)", function () {
  this.timeout(120_000);
  const person = suiteDisplay();
  let own: VirtualDisplay;
  let desktop: Desktop;
  let fixture: Fixture;
  const pointerOf = (env: NodeJS.ProcessEnv): string => execFileSync('xdotool', ['getmouselocation'], { env, encoding: 'utf8' }).trim();

  before(async () => {
    own = await VirtualDisplay.start({ width: 1024, height: 700, framebufferFile: true });
    const env = { ...own.env, [FRAMEBUFFER_VAR]: own.framebuffer };
    desktop = createPlatformDesktop({ env });
    fixture = await launchFixture({ env: own.env });
  });

  after(async () => {
    await fixture?.close();
    await desktop?.dispose?.();
    await own?.stop();
  });

  it('reads the own display\'s pixels, the fixture window where it is, not the person\'s screen', async () => {
    assert.notEqual(process.env.DISPLAY, own.display, 'the test must run on another display than the own desktop');
    assert.deepEqual(await desktop.screen.size(), { width: 1024, height: 700 });
    const { x, y } = fixture.ready.geometry;
    const inside = await desktop.screen.grab({ x: x + 10, y: y + 10, width: 40, height: 20 });
    assert.deepEqual(inside.origin, { x: x + 10, y: y + 10 });
    assert.equal(inside.data.length, 40 * 20 * 4);
    // Tk's grey (#d9d9d9) where the fixture's window is, and its status line read off those pixels.
    assert.deepEqual([...inside.data.subarray(0, 4)], [0xd9, 0xd9, 0xd9, 255]);
    const status = fixture.widget('status_label');
    const line = await desktop.screen.grab({ x: status.x - 4, y: status.y - 4, width: status.width + 8, height: status.height + 8 });
    const read = await desktop.ocr.recognize(line);
    assert.match(read.fullText, /Status: ready/, read.fullText);
    // A grab of the whole screen has the XWD layout's size, RGBA and opaque.
    const whole = await new FramebufferScreen(own.framebuffer).grab();
    assert.equal(whole.data.length, 1024 * 700 * 4);
    assert.equal(whole.data[3], 255);
  });

  it('clicks, types and presses keys on the own display; the person\'s pointer stays put', async () => {
    const before = pointerOf(person.env);
    const ok = fixture.widget('left_ok_button');
    const at = { x: ok.x + Math.round(ok.width / 2), y: ok.y + Math.round(ok.height / 2) };
    await desktop.input.click(at, 'left', 1);
    await fixture.waitFor((e) => e.event === 'click' && e.widget === 'left_ok_button');
    assert.deepEqual(await desktop.input.position(), at);
    const name = fixture.widget('name_entry');
    await desktop.input.click({ x: name.x + 20, y: name.y + Math.round(name.height / 2) }, 'left', 1);
    // Typed from stdin: shifted symbols and non-ASCII arrive as written.
    await desktop.input.typeText('Zoë <a@b>', 0);
    await fixture.waitFor((e) => e.event === 'text' && e.widget === 'name_entry' && e.value === 'Zoë <a@b>');
    await desktop.input.pressKey({ key: 'backspace', modifiers: [] });
    await fixture.waitFor((e) => e.event === 'text' && e.widget === 'name_entry' && e.value === 'Zoë <a@b');
    await desktop.input.pressKey({ key: 'a', modifiers: ['ctrl'] });
    await fixture.waitFor((e) => e.event === 'key' && e.keysym === 'a' && Array.isArray(e.state) && e.state.includes('Control'));
    assert.equal(pointerOf(person.env), before, "the person's pointer moved");
  });
});
