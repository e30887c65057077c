// The Wayland session's detection and the parts of its backend that need no compositor: which
// desktop a set of variables names, grim's PPM, sway's IPC framing, the stop hotkey's binding.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSession, detectDisplaySession } from '../../src/platform/linux/displaySession';
import { BRIDGE_FRAMES_SCRIPT } from '../../src/platform/linux/wayland/bridgeFramesScript';
import { BRIDGE_SWAY_SCRIPT } from '../../src/platform/linux/wayland/bridgeSwayScript';
import { decodePpm } from '../../src/platform/linux/wayland/grimScreen';
import { SwayReader } from '../../src/platform/linux/wayland/swayIpc';
import { swayCombo } from '../../src/platform/linux/wayland/swayInterrupts';
import { unsupportedReason } from '../../src/platform/linux/wayland/waylandDesktop';

describe('Wayland session detection', () => {
  let runtime: string;
  beforeEach(() => (runtime = mkdtempSync(join(tmpdir(), 'gai-wl-'))));
  afterEach(() => rmSync(runtime, { recursive: true, force: true }));

  it('an X11 session stays X11; Wayland wins when WAYLAND_DISPLAY is set, even with XWayland\'s DISPLAY', () => {
    assert.deepEqual(detectDisplaySession({ DISPLAY: ':0' }), { kind: 'x11', display: ':0' });
    const gnome = detectDisplaySession({ DISPLAY: ':0', WAYLAND_DISPLAY: 'wayland-0', XDG_RUNTIME_DIR: runtime, XDG_CURRENT_DESKTOP: 'ubuntu:GNOME' });
    assert.equal(gnome.kind === 'wayland' && gnome.compositor, 'gnome');
    assert.equal(gnome.kind === 'wayland' && gnome.xwayland, ':0');
    assert.match(describeSession(gnome), /^Wayland, GNOME \(Mutter\) \(WAYLAND_DISPLAY=wayland-0, XWayland DISPLAY=:0\)$/);
    // XDG_SESSION_TYPE=x11 with a stray WAYLAND_DISPLAY (a nested compositor's) is still X11.
    assert.equal(detectDisplaySession({ DISPLAY: ':1', WAYLAND_DISPLAY: 'wayland-1', XDG_SESSION_TYPE: 'x11' }).kind, 'x11');
    assert.equal(detectDisplaySession({}).kind, 'none');
  });

  it('sway by SWAYSOCK or by its one IPC socket in XDG_RUNTIME_DIR; KDE, Hyprland and the unknown by their variables', () => {
    const socket = join(runtime, 'sway-ipc.1000.42.sock');
    writeFileSync(socket, '');
    const found = detectDisplaySession({ WAYLAND_DISPLAY: 'wayland-1', XDG_RUNTIME_DIR: runtime });
    assert.equal(found.kind === 'wayland' && found.compositor, 'sway');
    assert.equal(found.kind === 'wayland' && found.swaySocket, socket);
    const kde = detectDisplaySession({ WAYLAND_DISPLAY: 'wayland-0', XDG_CURRENT_DESKTOP: 'KDE' });
    assert.equal(kde.kind === 'wayland' && kde.compositor, 'kde');
    const hypr = detectDisplaySession({ WAYLAND_DISPLAY: 'wayland-1', HYPRLAND_INSTANCE_SIGNATURE: 'x' });
    assert.equal(hypr.kind === 'wayland' && hypr.name, 'Hyprland');
    const other = detectDisplaySession({ WAYLAND_DISPLAY: 'wayland-0' });
    assert.equal(other.kind === 'wayland' && other.compositor, 'unknown');
  });

  it('a desktop GAI cannot drive is named with what to do', () => {
    const river = detectDisplaySession({ WAYLAND_DISPLAY: 'wayland-0', XDG_CURRENT_DESKTOP: 'river' });
    assert.ok(river.kind === 'wayland');
    const why = unsupportedReason(river);
    assert.match(why.message, /river is a wlroots-style compositor, but GAI reads windows only through sway's IPC/);
    assert.match(why.hint, /use sway, or log into an X11 session \("GNOME on Xorg", "Plasma \(X11\)"\)/);
  });
});

describe('Wayland backend pieces', () => {
  it('decodes grim\'s binary PPM (with a comment) into opaque RGBA, and refuses what is not one', () => {
    const pixels = Buffer.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]);
    const image = decodePpm(Buffer.concat([Buffer.from('P6\n# grim\n2 2\n255\n'), pixels]));
    assert.equal(image.width, 2);
    assert.equal(image.height, 2);
    assert.deepEqual([...image.data], [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 255]);
    assert.throws(() => decodePpm(Buffer.from('P3\n1 1\n255\n0 0 0\n')), /not an 8-bit binary PPM/);
    assert.throws(() => decodePpm(Buffer.concat([Buffer.from('P6\n4 4\n255\n'), pixels])), /not an 8-bit binary PPM/);
  });

  it('splits sway\'s IPC stream into messages, across chunks, and refuses a foreign stream', () => {
    const message = (type: number, body: string): Buffer => {
      const header = Buffer.alloc(14);
      header.write('i3-ipc');
      header.writeUInt32LE(Buffer.byteLength(body), 6);
      header.writeUInt32LE(type, 10);
      return Buffer.concat([header, Buffer.from(body)]);
    };
    const stream = Buffer.concat([message(0x80000005, '{"change":"run","binding":{"command":"nop gai-stop-1"}}'), message(4, '{"id":1}')]);
    const reader = new SwayReader();
    assert.deepEqual(reader.push(stream.subarray(0, 20)), []);
    const out = reader.push(stream.subarray(20));
    assert.deepEqual(out.map((m) => m.type), [0x80000005, 4]);
    assert.deepEqual(out[1]!.payload, { id: 1 });
    assert.throws(() => new SwayReader().push(Buffer.from('HTTP/1.1 200 OK\r\n')), /not its IPC protocol/);
  });

  it('writes the stop hotkey in sway\'s binding syntax', () => {
    assert.equal(swayCombo({ modifiers: ['ctrl', 'alt'], key: 'escape' }), 'Ctrl+Mod1+Escape');
    assert.equal(swayCombo({ modifiers: ['super', 'shift'], key: 'f12' }), 'Mod4+Shift+F12');
  });
});

describe('the bridge on sway: where a window-relative tree goes on the screen (python, stand-in tree)', () => {
  it('places a window by its process and size (the title settles two alike); a popup by the app\'s focused window; an XWayland one where it says; nothing when unsure', () => {
    const view = (id: number, pid: number, name: string, x: number, y: number, w: number, h: number, focused = false): object => ({
      id, type: 'con', pid, name, app_id: 'app', focused, rect: { x, y: y - 25, width: w + 4, height: h + 27 }, window_rect: { x: 2, y: 25, width: w, height: h },
    });
    const tree = { type: 'root', nodes: [{ type: 'output', nodes: [
      view(1, 10, 'Calculator', 0, 25, 636, 773, true), view(2, 20, 'notes.txt', 640, 25, 636, 773),
      view(3, 20, 'todo.txt', 640, 425, 636, 373), view(4, 30, 'One', 0, 425, 300, 300), view(5, 30, 'Two', 300, 425, 300, 300),
      { ...view(6, 40, 'xterm', 900, 500, 300, 200), shell: 'xwayland' },
    ] }] };
    const script = `import json, os, time
class X11Windows:
    pass
${BRIDGE_FRAMES_SCRIPT}
${BRIDGE_SWAY_SCRIPT}
hints = SwayHints('/nonexistent')
hints.ask = lambda kind, payload=b'': json.loads(${JSON.stringify(JSON.stringify(tree))})
print(json.dumps([hints.origin(10, 'Calculator', (636, 773), False), hints.origin(20, 'todo.txt', (636, 373), False),
    hints.origin(30, 'Two', (300, 300), False), hints.origin(30, 'Three', (300, 300), False), hints.origin(10, '', (200, 100), True),
    hints.origin(20, '', (200, 100), True), hints.origin(99, 'x', (10, 10), False), hints.active_hint(), hints.origin(40, 'xterm', (300, 200), False)]))`;
    const answer = JSON.parse(execFileSync('python3', ['-c', script], { encoding: 'utf8' })) as unknown[];
    // The XWayland window's boxes are already the screen's.
    assert.deepEqual(answer, [[2, 25], [642, 425], [302, 425], null, [2, 25], null, null, [10, 'Calculator'], [0, 0]]);
  });
});
