import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { portalTrigger } from '../../src/platform/linux/wayland/portalInterrupts';
import { BRIDGE_FRAMES_SCRIPT } from '../../src/platform/linux/wayland/bridgeFramesScript';
import { BRIDGE_KWIN_SCRIPT } from '../../src/platform/linux/kde/bridgeKwinScript';

// The KWin half of the bridge in python3, with KWin's answer stood in: which box is a window's
// client area (server-side decorations or client-side shadows), where a surface's tree is placed,
// what is listed and in which order. The real KWin: waylandKde.test.ts.

const SETUP = String.raw`
import json, os, threading, time
${BRIDGE_FRAMES_SCRIPT}
${BRIDGE_KWIN_SCRIPT}
class Stand:
    def __init__(self, views): self.views = views
    def run(self, js): return self.views
def hints(views):
    h = KWinHints.__new__(KWinHints)
    h.kwin, h.cached = Stand(views), (0.0, None)
    return h
`;

function python(body: string): unknown {
  return JSON.parse(execFileSync('python3', ['-c', `${SETUP}\n${body}`], { encoding: 'utf8' })) as unknown;
}

// galculator with KDE's title bar (its surface is its client area), a GTK 4 window with its own
// shadows (its surface is larger than its frame), a menu, the panel, and an X11 app.
const VIEWS = `[
  {'id': 'a', 'title': 'galculator', 'app': 'galculator', 'pid': 10, 'frame': [464, 209, 351, 381], 'buffer': [464, 246, 351, 344], 'active': True, 'shown': True, 'order': 3},
  {'id': 'b', 'title': 'Text Editor', 'app': 'org.gnome.TextEditor', 'pid': 20, 'frame': [100, 100, 600, 400], 'buffer': [76, 82, 648, 448], 'active': False, 'shown': True, 'order': 2},
  {'id': 'c', 'title': '', 'app': 'galculator', 'pid': 10, 'frame': [500, 300, 150, 200], 'buffer': [500, 300, 150, 200], 'popup': True, 'shown': True, 'order': 5},
  {'id': 'd', 'title': 'Panel', 'app': 'plasmashell', 'pid': 30, 'frame': [0, 760, 1280, 40], 'buffer': [0, 760, 1280, 40], 'special': True, 'shown': True, 'order': 9},
  {'id': 'e', 'title': 'xterm', 'app': 'xterm', 'pid': 40, 'frame': [10, 10, 300, 200], 'buffer': [10, 40, 300, 170], 'shown': True, 'x11': True, 'order': 1},
  {'id': 'f', 'title': 'hidden', 'app': 'x', 'pid': 50, 'frame': [0, 0, 10, 10], 'buffer': [0, 0, 10, 10], 'shown': False, 'order': 4}]`;

describe('KWin window hints (python, KWin\'s answer stood in)', () => {
  it('a window\'s box is its client area: inside KDE\'s title bar, inside a toolkit\'s own shadows', () => {
    const boxes = python(`h = hints(${VIEWS})\nprint(json.dumps({w['id']: w['bounds'] for w in h.windows()}))`);
    assert.deepEqual(boxes, { a: [464, 246, 351, 344], b: [100, 100, 600, 400], e: [10, 40, 300, 170] });
  });

  it('lists application windows topmost first, menus apart, the panel and hidden windows not at all; the active one names its process', () => {
    const said = python(`h = hints(${VIEWS})
print(json.dumps([[w['id'] for w in h.windows()], [(w['id'], w['type']) for w in h.popups()], h.active_hint(), h.answer({'cmd': 'activeId'})]))`);
    assert.deepEqual(said, [['a', 'b', 'e'], [['c', 'popup_menu']], [10, 'galculator'], { windowId: 'a' }]);
  });

  it('places a tree at its surface\'s corner, found by process and size; XWayland\'s trees are already on the screen; no fit, no place', () => {
    const origins = python(`h = hints(${VIEWS})
print(json.dumps([h.origin(10, 'galculator', (351, 344), False), h.origin(20, 'Text Editor', (648, 448), False), h.origin(40, 'xterm', (300, 170), False),
    h.origin(10, '', (150, 200), True), h.origin(10, 'galculator', (200, 200), False), h.origin(99, 'x', (10, 10), False)]))`);
    assert.deepEqual(origins, [[464, 246], [76, 82], [0, 0], [464, 246], null, null]);
  });

  it('the stop hotkey is asked in the XDG shortcut form', () => {
    assert.equal(portalTrigger({ modifiers: ['ctrl', 'alt'], key: 'escape' }), 'CTRL+ALT+Escape');
    assert.equal(portalTrigger({ modifiers: ['super', 'shift'], key: 'f5' }), 'LOGO+SHIFT+F5');
    assert.equal(portalTrigger({ modifiers: ['command'], key: 'q' }), 'CTRL+q');
  });
});
