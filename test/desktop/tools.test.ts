import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NutInput } from '../../src/platform/nut/nutInput';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { FIXTURE_SCRIPT, launchFixture, suiteDisplay, writeDesktopEntry, type Fixture, type FixtureEvent } from './support/fixture';

const display = suiteDisplay();

const clickOn = (widget: string) => (e: FixtureEvent) => e.event === 'click' && e.widget === widget;

describe('desktop tools on a real X display (Xvfb + openbox, Tk fixture)', function () {
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

  it('clicks by coordinates on the right widget', async () => {
    app = await launchFixture(display);
    const cancel = app.widget('cancel_button');
    const result = await rig.run('click', { x: cancel.x + cancel.width / 2, y: cancel.y + cancel.height / 2 });
    assert.equal(result.success, true, result.error);
    await app.waitFor(clickOn('cancel_button'));
  });

  it('clicks by text, right and double clicks included', async () => {
    app = await launchFixture(display);
    const save = await rig.run('click', { text: 'Save' });
    assert.equal(save.success, true, save.error);
    await app.waitFor(clickOn('save_button'));
    assert.equal(app.events().some(clickOn('save_as_button')), false, '"Save" is not "Save As"');
    await rig.run('click', { text: 'Apply', button: 'right' });
    await app.waitFor((e) => clickOn('apply_button')(e) && e.button === 3);
    await rig.run('click', { text: 'Cancel', doubleClick: true });
    await app.waitFor((e) => clickOn('cancel_button')(e) && e.double === true);
  });

  it('finds a phrase of two words', async () => {
    app = await launchFixture(display);
    const result = await rig.run('click', { text: 'open file' });
    assert.equal(result.success, true, result.error);
    await app.waitFor(clickOn('open_file_button'));
  });

  it('lists the candidates of an ambiguous text and clicks none, then picks by near', async () => {
    app = await launchFixture(display);
    const ambiguous = await rig.run('click', { text: 'OK' });
    assert.equal(ambiguous.success, false);
    const candidates = (ambiguous.data as { candidates: Array<{ bbox: { x: number } }> }).candidates;
    assert.equal(candidates.length, 2);
    assert.ok(candidates[0]!.bbox.x < candidates[1]!.bbox.x, 'candidates in reading order');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(app.events().filter((e) => e.event === 'click').length, 0, 'nothing was clicked');
    const near = await rig.run('click', { text: 'OK', near: 'Right panel' });
    assert.equal(near.success, true, near.error);
    await app.waitFor(clickOn('right_ok_button'));
  });

  it('follows the text when the buttons move', async () => {
    app = await launchFixture(display, { variant: 'moved' });
    const result = await rig.run('click', { text: 'Save' });
    assert.equal(result.success, true, result.error);
    await app.waitFor(clickOn('save_button'));
  });

  it('types symbols and accents exactly', async () => {
    app = await launchFixture(display);
    const entry = app.widget('name_entry');
    await rig.run('click', { x: entry.x + 20, y: entry.y + entry.height / 2 });
    await app.waitFor((e) => e.event === 'focus' && e.widget === 'name_entry');
    const text = 'Hello, World! @#$% café';
    const result = await rig.run('type_text', { text, delay: 5 });
    assert.equal(result.success, true, result.error);
    await app.waitFor((e) => e.event === 'text' && e.widget === 'name_entry' && e.value === text, 10_000);
  });

  it('presses key combos and moves the focus with Tab', async () => {
    app = await launchFixture(display);
    const entry = app.widget('name_entry');
    await rig.run('click', { x: entry.x + 20, y: entry.y + entry.height / 2 });
    await app.waitFor((e) => e.event === 'focus' && e.widget === 'name_entry');
    const combo = await rig.run('press_key', { key: 'ctrl+a' });
    assert.equal(combo.success, true, combo.error);
    await app.waitFor((e) => e.event === 'key' && String(e.keysym).toLowerCase() === 'a' && (e.state as string[]).includes('Control'));
    await rig.run('tab_navigate', { count: 1 });
    await app.waitFor((e) => e.event === 'focus' && e.widget === 'email_entry');
    await rig.run('tab_navigate', { count: 1, reverse: true });
    await app.waitFor((e, i) => e.event === 'focus' && e.widget === 'name_entry' && i > app!.events().findIndex((x) => x.widget === 'email_entry'));
    await rig.run('press_key', { key: 'enter' });
    await app.waitFor((e) => e.event === 'key' && e.keysym === 'Return');
  });

  it('scrolls where the text is', async () => {
    app = await launchFixture(display);
    const result = await rig.run('scroll', { direction: 'down', amount: 3, text: 'Item 5' });
    assert.equal(result.success, true, result.error);
    await app.waitFor((e) => e.event === 'scroll' && e.direction === 'down');
  });

  it('reports the screen after an action when asked', async () => {
    app = await launchFixture(display);
    const result = await rig.run('click', { text: 'Apply', returnScreen: true });
    assert.equal(result.success, true, result.error);
    const after = (result.data as { screenAfter: { text: string } }).screenAfter;
    assert.match(after.text, /Status: clicked Apply/);
  });

  it('launches an application by name through its desktop entry and reports its window', async () => {
    const dataHome = mkdtempSync(join(tmpdir(), 'gai-xdg-'));
    const logPath = join(dataHome, 'launched.jsonl');
    writeDesktopEntry(dataHome, { name: 'GAI Fixture', exec: ['python3', FIXTURE_SCRIPT, '--log', logPath, '--title', 'Launched Fixture'] });
    const launchRig = createDesktopRig({ ...display.env, XDG_DATA_HOME: dataHome });
    try {
      const result = await launchRig.run('launch_app', { appName: 'gai fixture' });
      assert.equal(result.success, true, result.error);
      const window = (result.data as { window: { title: string; appName: string } }).window;
      assert.equal(window.title, 'Launched Fixture');
      assert.equal(window.appName, 'GaiFixture');
    } finally {
      await launchRig.dispose();
      spawnSync('pkill', ['-f', logPath]);
    }
  });

  it('rejects bad input without acting', async () => {
    app = await launchFixture(display);
    for (const [name, input, field] of [
      ['click', { x: 10 }, 'y'],
      ['click', { text: 'Save', occurrence: 0 }, 'occurrence'],
      ['type_text', { text: '' }, 'text'],
      ['press_key', { key: 'ctrl+nonsense' }, 'key'],
      ['scroll', { direction: 'sideways' }, 'direction'],
      ['click', { x: 99_999, y: 10 }, 'x'],
    ] as const) {
      const result = await rig.run(name, input);
      assert.equal(result.code, 'INVALID_INPUT', `${name} ${JSON.stringify(input)}`);
      assert.match(result.error ?? '', new RegExp(`${field}`));
    }
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(app.events().filter((e) => e.event === 'click' || e.event === 'key').length, 0);
  });

  it('maps screen pixels to input units with the display scale (HiDPI)', async () => {
    const input = new NutInput(async () => 2, 'linux');
    await input.move({ x: 800, y: 600 });
    const location = execFileSync('xdotool', ['getmouselocation', '--shell'], { env: display.env, encoding: 'utf8' });
    assert.match(location, /^X=400$/m);
    assert.match(location, /^Y=300$/m);
  });
});
