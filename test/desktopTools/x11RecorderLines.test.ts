import { strict as assert } from 'node:assert';
import type { RecordedInput } from '../../src/desktop/ports/inputRecorderPort';
import { parseInputLine, RecordedInputAssembler, type RecorderInputLine } from '../../src/platform/linux/x11/x11RecorderLines';
import { createPlatformRecorder, UnavailableRecorder } from '../../src/platform/platformRecorder';
import { X11InputRecorder } from '../../src/platform/linux/x11/x11InputRecorder';

// The X11 input recorder's Node side without a display: helper lines → RecordedInput, and which
// recorder each platform gets.

const WINDOW = { id: '4194310', title: 'GAI Record', app: 'GaiRecord', pid: 42 };
let time = 1000;

function key(key: string, extra: Partial<RecorderInputLine> = {}): RecorderInputLine {
  return { type: 'key', down: true, key, modifiers: [], modifier: false, window: WINDOW, time: time++, ...extra };
}
function modifier(name: string, down: boolean, modifiers: string[] = []): RecorderInputLine {
  return { type: 'key', down, key: name, modifier: true, modifiers, time: time++, ...(down ? { window: WINDOW } : {}) };
}
function button(down: boolean, at: [number, number], modifiers: string[] = []): RecorderInputLine {
  return { type: 'button', down, button: 'left', at, modifiers, time: time++, ...(down ? { window: WINDOW } : {}) };
}

function assemble(lines: RecorderInputLine[], end: 'flush' | 'stop' | 'none' = 'none'): RecordedInput[] {
  const out: RecordedInput[] = [];
  const assembler = new RecordedInputAssembler((input) => out.push(input));
  lines.forEach((line, index) => assembler.take(line, 100 + index));
  if (end === 'flush') assembler.flush();
  if (end === 'stop') assembler.stop();
  return out;
}

const describeInput = (i: RecordedInput): string =>
  i.kind === 'key' ? `${[...i.modifiers, i.key].join('+')}${i.text !== undefined ? `"${i.text}"` : ''}` : i.kind === 'button' ? `click ${i.at.x},${i.at.y}${i.upAt ? `→${i.upAt.x},${i.upAt.y}` : ''}` : `scroll ${i.direction}`;

describe('X11 input recorder lines (helper lines → recorded input)', () => {
  it('merges a press and its release into one button with upAt, stamped when the press arrived', () => {
    const out = assemble([button(true, [10, 20], ['ctrl']), button(false, [200, 220])]);
    assert.equal(out.length, 1);
    assert.deepEqual(out[0], {
      kind: 'button', button: 'left', at: { x: 10, y: 20 }, upAt: { x: 200, y: 220 }, modifiers: ['ctrl'],
      seenAt: 100, serverTime: out[0]!.serverTime, window: WINDOW,
    });
  });

  it('keeps the order: input during a held button waits behind it; a flush ends a button still down', () => {
    assert.deepEqual(assemble([button(true, [1, 1]), key('a', { text: 'a' })]).map(describeInput), [], 'nothing before the release');
    assert.deepEqual(assemble([button(true, [1, 1]), key('a', { text: 'a' })], 'flush').map(describeInput), ['click 1,1', 'a"a"']);
  });

  it('drops modifiers pressed for a chord; reports one pressed alone when it comes up', () => {
    const out = assemble([
      modifier('shift', true), key('z', { text: 'Z', modifiers: ['shift'] }), modifier('shift', false),
      modifier('super', true), modifier('super', false),
      modifier('ctrl', true), modifier('shift', true, ['ctrl']), key('t', { modifiers: ['ctrl', 'shift'] }), modifier('shift', false), modifier('ctrl', false),
      modifier('shift', true), button(true, [5, 5], ['shift']), button(false, [5, 5]), modifier('shift', false),
    ]);
    assert.deepEqual(out.map(describeInput), ['shift+z"Z"', 'super', 'ctrl+shift+t', 'click 5,5→5,5']);
  });

  it('ends at the stop hotkey: its modifiers are not input, nothing after it is; text never rides on a modifier', () => {
    const out = assemble([key('b', { text: 'b' }), modifier('ctrl', true), modifier('alt', true, ['ctrl'])], 'stop');
    assert.deepEqual(out.map(describeInput), ['b"b"']);
    const after = new RecordedInputAssembler(() => assert.fail('input after stop'));
    after.stop();
    after.take(key('c'), 1);
    const lone = assemble([{ ...modifier('shift', true), text: 'x' }, modifier('shift', false)]);
    assert.deepEqual(lone.map((i) => i.kind === 'key' && 'text' in i), [false]);
  });

  it('reads only well-formed input lines', () => {
    assert.equal(parseInputLine({ type: 'flushed', id: 1 }), undefined);
    assert.equal(parseInputLine({ type: 'button', down: true, time: 1, button: 'back', at: [1, 2] }), undefined);
    assert.equal(parseInputLine({ type: 'scroll', down: true, time: 1, direction: 'down' }), undefined);
    assert.ok(parseInputLine({ type: 'scroll', down: true, time: 1, direction: 'down', at: [3, 4], window: null }));
    const [scroll] = assemble([parseInputLine({ type: 'scroll', down: true, time: 1, direction: 'down', at: [3, 4], modifiers: ['ctrl', 'level3'], window: null })!]);
    assert.deepEqual(scroll, { kind: 'scroll', direction: 'down', at: { x: 3, y: 4 }, modifiers: ['ctrl'], seenAt: 100, serverTime: 1 });
  });

  it('gets the X11 recorder on X11 and a precise refusal elsewhere', async () => {
    assert.ok(createPlatformRecorder({ DISPLAY: ':5' }, 'linux') instanceof X11InputRecorder);
    const handlers = { onInput: () => {}, onStop: () => {}, onWarning: () => {} };
    const wayland = createPlatformRecorder({ WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0', XDG_CURRENT_DESKTOP: 'GNOME' }, 'linux');
    assert.ok(wayland instanceof UnavailableRecorder);
    await assert.rejects(wayland.record({}, handlers), /not possible on Wayland: the compositor gives no program the input of other windows; record on GAI's own desktop \(--desktop own\) or an X11 session/);
    await assert.rejects(createPlatformRecorder({}, 'darwin').record({}, handlers), /not built for macOS yet/);
    await assert.rejects(createPlatformRecorder({}, 'win32').record({}, handlers), /not built for Windows yet/);
    await assert.rejects(createPlatformRecorder({}, 'linux').record({}, handlers), /needs a display: no display/);
    await assert.rejects(new X11InputRecorder({ env: {} }).record({}, handlers), /no X display \(DISPLAY is not set\)/);
  });
});
