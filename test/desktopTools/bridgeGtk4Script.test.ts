import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { BRIDGE_GTK4_SCRIPT } from '../../src/platform/linux/atspi/bridgeGtk4Script';

// The pure parts of the bridge's GTK 4 walk, run in python3 with a stand-in X server: how a GTK 4
// window's reported boxes are moved to the screen, how a popover is placed, what a button is
// named, and that what an open popover covers is left out. (realAppsGtk4.test.ts reads real apps.)

function python(body: string): unknown {
  const out = execFileSync('python3', ['-c', `${BRIDGE_GTK4_SCRIPT}\nimport json\n${body}`], { encoding: 'utf8' });
  return JSON.parse(out) as unknown;
}

/** A stand-in for the bridge's X11Windows: managed windows, popups, and _GTK_FRAME_EXTENTS by window id. */
const FAKE_X11 = String.raw`
class FakeX11:
    def __init__(self, windows, popups=(), extents=None):
        self.w, self.p, self.e = list(windows), list(popups), extents or {}
    def windows(self):
        return self.w
    def popups(self):
        return self.p
    def display(self):
        return self
    def create_resource_object(self, kind, wid):
        return wid
    def prop(self, wid, name):
        return self.e.get(wid)
    def reset(self):
        pass

def win(wid, title, box, pid=7):
    return {'id': '0x%x' % wid, 'title': title, 'bounds': list(box), 'pid': pid}
`;

describe('bridge GTK 4 walk (python, stand-in X server)', () => {
  it('moves window-relative boxes by the X window less GTK\'s even margin, or by _GTK_FRAME_EXTENTS', () => {
    const shifts = python(`${FAKE_X11}
plain = Gtk4Places(FakeX11([win(1, 'Calculator', (777, 304, 365, 508))]), 7)
shadow = Gtk4Places(FakeX11([win(2, 'Calculator', (100, 50, 400, 560))], extents={2: [20, 25, 15, 30]}), 7)
print(json.dumps([plain.frame_shift('Calculator', (0, 0, 355, 498)), shadow.frame_shift('Calculator', (0, 0, 355, 515))]))`);
    assert.deepEqual(shifts, [
      [782, 309],
      [120, 65],
    ]);
  });

  it('tells windows of one app apart by size and title, and gives up on two alike (the window is left to OCR)', () => {
    const shifts = python(`${FAKE_X11}
two = FakeX11([win(1, 'notes.txt - Text Editor', (40, 40, 700, 520)), win(2, 'Preferences', (70, 0, 640, 700)), win(3, 'other', (0, 0, 700, 520), pid=8)])
places = Gtk4Places(two, 7)
same = Gtk4Places(FakeX11([win(1, 'A', (0, 0, 410, 310)), win(2, 'B', (500, 0, 410, 310))]), 7)
print(json.dumps([places.frame_shift('Preferences', (0, 0, 630, 690)), places.frame_shift('notes.txt - Text Editor', (0, 0, 690, 510)),
    same.frame_shift('A', (0, 0, 400, 300)), same.frame_shift('C', (0, 0, 400, 300)), places.frame_shift('x', (0, 0, 100, 100))]))`);
    assert.deepEqual(shifts, [[75, 5], [45, 45], [5, 5], null, null]);
  });

  it('places a popover by the one popup X window of its size', () => {
    const placed = python(`${FAKE_X11}
places = Gtk4Places(FakeX11([], popups=[win(9, '', (979, 328, 277, 232)), win(10, '', (5, 5, 100, 30)), win(11, '', (0, 0, 100, 30))]), 7)
print(json.dumps([places.popup_at((277, 232)), places.popup_at((100, 30)), places.popup_at((50, 50))]))`);
    assert.deepEqual(placed, [[979, 328, 277, 232], null, null]);
  });

  it('names a button by the label it shows, not by its type or twice; keeps real names', () => {
    const names = python(`print(json.dumps([
    gtk4_plain_name('GtkButton', 'push button'), gtk4_plain_name('EditorSourceView', 'text'), gtk4_plain_name('GtkLabel', 'label'),
    gtk4_plain_name('GitHub', 'label'), gtk4_plain_name('Undo', 'push button'), gtk4_plain_name('AC', 'push button'),
    gtk4_shown_name('7 7', ['7']), gtk4_shown_name('_Retry Retry', ['Retry']), gtk4_shown_name('a×b a×b', ['a×b']),
    gtk4_shown_name('', ['π']), gtk4_shown_name('', []), gtk4_shown_name('Bora Bora', ['Tahiti']), gtk4_shown_name('Zoom out', [])]))`);
    assert.deepEqual(names, ['', '', '', 'GitHub', 'Undo', 'AC', '7', 'Retry', 'a×b', 'π', '', 'Bora Bora', 'Zoom out']);
  });

  it('leaves out what an open popover covers, keeping the popover\'s own widgets', () => {
    const kept = python(`
out = [{'name': 'Basic', 'box': (1061, 315, 112, 34)}, {'name': 'Advanced', 'box': (1021, 400, 193, 32), 'popup': True}, {'name': '7', 'box': (799, 689, 52, 40)}]
items, keys = gtk4_uncovered(out, ['a', 'b', 'c'], [(979, 328, 277, 232)])
print(json.dumps([[i['name'] for i in items], keys]))`);
    assert.deepEqual(kept, [
      ['Advanced', '7'],
      ['b', 'c'],
    ]);
  });
});
