import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { BRIDGE_ATSPI_ACT_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiActScript';
import { BRIDGE_ATSPI_CELLS_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiCellsScript';
import { BRIDGE_ATSPI_EVENTS_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiEventsScript';
import { BRIDGE_ATSPI_PARTS_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiPartsScript';
import { BRIDGE_ATSPI_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiScript';
import { BRIDGE_ATSPI_TEXT_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiTextScript';
import { BRIDGE_ATSPI_WALK_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiWalkScript';

// The pure parts of the bridge's AT-SPI half, run in python3 with stand-ins for libatspi: the text
// reading (whole-word matches, what part of a long text is read, where a word's box is taken,
// LibreOffice's shifted paragraphs), which cached walks an event throws away and which new text
// is written into them, and which new names. Real apps:
// realAppsTreeText.test.ts.

function python(body: string): unknown {
  const out = execFileSync('python3', ['-c', `${BRIDGE_ATSPI_WALK_SCRIPT}\n${BRIDGE_ATSPI_TEXT_SCRIPT}\nimport json\n${body}`], { encoding: 'utf8' });
  return JSON.parse(out) as unknown;
}

/** Monospaced text, 10 px a character and 20 px a line, laid out from (left, top); ranges as the toolkit gives them, moved by `report`. */
const FAKE_ATSPI = String.raw`
class R:
    def __init__(self, x, y, w, h):
        self.x, self.y, self.width, self.height = x, y, w, h
class Range:
    def __init__(self, s, e):
        self.start_offset, self.end_offset = s, e
class FakeText:
    def __init__(self, lines, left=0, top=0, report=(0, 0)):
        self.lines, self.left, self.top, self.report = lines, left, top, report
        self.text = '\n'.join(lines)
    def where(self, offset):
        row = self.text[:offset].count('\n')
        return row, offset - (self.text.rfind('\n', 0, offset) + 1)
    def get_offset_at_point(self, node, x, y, coords):
        row = min(len(self.lines) - 1, max(0, (y - self.top) // 20))
        col = min(len(self.lines[row]), max(0, (x - self.left) // 10))
        return sum(len(l) + 1 for l in self.lines[:row]) + col
    def get_string_at_offset(self, node, offset, granularity):
        row, _ = self.where(offset)
        start = sum(len(l) + 1 for l in self.lines[:row])
        return Range(start, start + len(self.lines[row]) + 1)
    def get_text(self, node, start, end):
        return self.text[start:end]
    def get_range_extents(self, node, start, end, coords):
        (r0, c0), (r1, c1) = self.where(start), self.where(end)
        if r0 != r1:
            return R(self.left + self.report[0], self.top + 20 * r0 + self.report[1], 400, 20 * (r1 - r0 + 1))
        return R(self.left + 10 * c0 + self.report[0], self.top + 20 * r0 + self.report[1], 10 * (c1 - c0), 20)
    def get_character_extents(self, node, offset, coords):
        r, c = self.where(offset)
        return R(self.left + 10 * c + self.report[0], self.top + 20 * r + self.report[1], 10, 20)
class CoordType:
    SCREEN = 0
class TextGranularity:
    LINE = 4
class Atspi:
    Text = None
    CoordType = CoordType
    TextGranularity = TextGranularity
`;

describe('bridge text reading (python, stand-in Text interface)', () => {
  it('matches whole words, any case, across runs of white space; punctuation around a query is its own', () => {
    const found = python(`print(json.dumps([text_matches('The late ferry; relate LATE.', 'late'), text_matches('arrived\\n  late', 'arrived late'),
        text_matches('path.join(a) and path.joined', 'path.join'), text_matches('x <- y', '<-'), text_matches('anything', '   ')]))`);
    assert.deepEqual(found, [[[4, 8], [23, 27]], [[0, 14]], [[0, 9]], [[2, 4]], []]);
  });

  it('reads the lines a long text shows, from the first line drawn to the last, not its start', () => {
    const shown = python(`${FAKE_ATSPI}
lines = ['line %03d of a long file' % i for i in range(200)]
Atspi.Text = FakeText(lines, left=100, top=-2000)  # scrolled: line 100 is at the top of the view
print(json.dumps(visible_text(Atspi, None, (100, 0, 300, 100), len(Atspi.Text.text))))`) as [string, number];
    assert.ok(shown[0].startsWith('line 100 of a long file'), shown[0]);
    assert.ok(shown[0].includes('line 104') && !shown[0].includes('line 106'), shown[0]);
    assert.equal(shown[1], 100 * 24);
  });

  it('boxes each occurrence on the screen; a match wrapped over two lines or cut off by the view is left to OCR', () => {
    const boxes = python(`${FAKE_ATSPI}
Atspi.Text = FakeText(['the late ferry was late', 'arrived', 'late'], left=10, top=100)
entry = {'node': None, 'text': Atspi.Text.text, 'base': 0, 'box': (10, 100, 400, 40), 'shift': (0, 0)}
wrapped = dict(entry, text='late\\narrived')
print(json.dumps([text_boxes(Atspi, entry, 'late'), text_boxes(Atspi, entry, 'late arrived'), text_boxes(Atspi, entry, 'ferry was late arrived')]))`);
    assert.deepEqual(boxes, [
      [
        [[50, 100, 40, 20], 'late'],
        [[200, 100, 40, 20], 'late'],
      ],
      [],
      [],
    ]);
  });

  it('places a LibreOffice range by the paragraph it lies in, shifted or not, and gives up when it could lie at both', () => {
    const boxes = python(`${FAKE_ATSPI}
# The paragraph is drawn at y 125; its own box was reported 25 px higher, so the walk shifted it.
raw = FakeText(['Shipments from Valencia'], left=10, top=100)
right = FakeText(['Shipments from Valencia'], left=10, top=125)
one = {'node': None, 'text': raw.text, 'base': 0, 'box': (10, 125, 400, 19), 'shift': (0, 25)}
Atspi.Text = raw
shifted = text_boxes(Atspi, one, 'Valencia')
Atspi.Text = right
unshifted = text_boxes(Atspi, one, 'Valencia')
tall = dict(one, box=(10, 100, 400, 80))
both = text_boxes(Atspi, tall, 'Valencia')
print(json.dumps([shifted, unshifted, both]))`);
    // Clipped to the paragraph's 19 px.
    assert.deepEqual(boxes, [[[[160, 125, 80, 19], 'Valencia']], [[[160, 125, 80, 19], 'Valencia']], []]);
  });
});

/** Runs `body` after the bridge's Tree (with the walk and text parts) and stand-in nodes and events; returns its JSON. */
function withTree(body: string): unknown {
  const script = `import time, hashlib, os, json
class X11Windows:
    pass
def window_hints():
    return X11Windows()
${BRIDGE_ATSPI_WALK_SCRIPT}
${BRIDGE_ATSPI_CELLS_SCRIPT}
${BRIDGE_ATSPI_ACT_SCRIPT}
${BRIDGE_ATSPI_TEXT_SCRIPT}
${BRIDGE_ATSPI_EVENTS_SCRIPT}
${BRIDGE_ATSPI_PARTS_SCRIPT}
${BRIDGE_ATSPI_SCRIPT}
class Node:
    def __init__(self, path, bus=None, text=''):
        self.path, self.text = path, text
        self.app = type('App', (), {'bus_name': bus})() if bus else None
class Event:
    def __init__(self, kind, source, detail1=0):
        self.type, self.source, self.detail1 = kind, source, detail1
tree = Tree()
${body}`;
  return JSON.parse(execFileSync('python3', ['-c', script], { encoding: 'utf8' })) as unknown;
}

describe('bridge event handling (python, stand-in events)', () => {
  it('an object gone defunct whose application is unknown throws away only the walks that held it; other unknown events, all walks', () => {
    const state = withTree(`tree.cache = {(':1.5', '/w1'): {'paths': {'/a/1': 0}}, (':1.6', '/w2'): {'paths': {'/a/2': 0}}}
tree.on_event(Event('object:state-changed:defunct', Node('/a/1')))
after_defunct = sorted(k[1] for k in tree.cache)
tree.on_event(Event('object:state-changed:defunct', Node('/a/9')))
after_other = sorted(k[1] for k in tree.cache)
gen_before = tree.any_gen
tree.on_event(Event('object:children-changed:add', Node('/a/3')))
# A change in an application with a kept walk waits to be placed; one that cannot be (its node
# has no parent to climb to) has the application's windows walked anew.
tree.on_event(Event('object:children-changed:add', Node('/a/4', ':1.6')))
deferred = dict(tree.app_gen)
tree.place_changes(':1.6')
print(json.dumps([after_defunct, after_other, gen_before, tree.any_gen, deferred, tree.app_gen]))`);
    assert.deepEqual(state, [['/w2'], ['/w2'], 0, 1, {}, { ':1.6': 1 }]);
  });

  it('new text in a cached text element is read into the walk when asked, not walked again; a label\'s or an unknown object\'s waits to be placed as a changed part', () => {
    const state = withTree(`class Text:
    @staticmethod
    def get_character_count(node):
        return len(node.text)
    @staticmethod
    def get_text(node, start, end):
        return node.text[start:end]
class Atspi:
    Text = Text
display = Node('/display', ':1.7', '2+')
walk = {'paths': {'/display': 0, '/label': 1}, 'elements': [{'name': '', 'role': 'text', 'text': '2', 'states': []},
    {'name': 'Result', 'role': 'label', 'states': []}], 'textNodes': [{'node': display, 'text': '2', 'base': 0}]}
tree.cache = {(':1.7', '/w'): walk}
tree.on_event(Event('object:text-changed:insert', display, 1))
marked = sorted(tree.text_dirty.get(':1.7', {}))
gen_after_text = tree.app_gen.get(':1.7', 0)
fresh = refresh_texts(Atspi, walk, tree.text_dirty[':1.7'])
tree.on_event(Event('object:text-changed:insert', Node('/label', ':1.7'), 0))
tree.on_event(Event('object:text-changed:insert', Node('/elsewhere', ':1.7'), 0))
long_text = refresh_texts(Atspi, walk, {'/display': Node('/display', ':1.7', 'x' * (MAX_TEXT + 1))})
print(json.dumps([marked, gen_after_text, fresh, walk['elements'][0]['text'], walk['textNodes'][0]['text'], sorted(tree.changed.get(':1.7', {})), long_text]))`);
    // The label's and the unknown object's wait to be placed as changed parts (see "parts" below).
    assert.deepEqual(state, [['/display'], 0, true, '2+', '2+', ['/elsewhere', '/label'], false]);
  });

  it('a new name of a cached element is read into the walk when asked, not walked again; an unknown object\'s, or a GTK 4 app\'s, waits to be placed as a changed part', () => {
    const state = withTree(`class Named(Node):
    def get_name(self):
        return self.text
status = Named('/status', ':1.8', 'Synced just now')
walk = {'paths': {'/status': 0, '/ok': 1}, 'elements': [{'name': 'Synced 4 minutes ago', 'role': 'static', 'box': [0, 0, 90, 12], 'states': []},
    {'name': 'OK', 'role': 'push button', 'box': [0, 20, 40, 20], 'text': 'Synced just now', 'states': []}], 'digest': 'old'}
tree.cache = {(':1.8', '/w'): walk}
tree.on_event(Event('object:property-change:accessible-name', status))
marked = sorted(tree.name_dirty.get(':1.8', {}))
gen_after_name = tree.app_gen.get(':1.8', 0)
kept = refresh_names(walk, tree.name_dirty[':1.8'])
cleared = refresh_names(walk, {'/ok': Named('/ok', ':1.8', 'Synced just now')})
tree.on_event(Event('object:property-change:accessible-name', Named('/elsewhere', ':1.8', 'x')))
tree.gtk4[':1.9'] = True
tree.cache[(':1.9', '/g')] = {'paths': {'/g/1': 0}, 'elements': [{'name': 'a', 'role': 'label', 'states': []}]}
tree.on_event(Event('object:property-change:accessible-name', Named('/g/1', ':1.9', 'b')))
print(json.dumps([marked, gen_after_name, kept, walk['elements'][0]['name'], walk['digest'] != 'old', cleared, walk['elements'][1], sorted(tree.changed.get(':1.8', {})), sorted(tree.changed.get(':1.9', {}))]))`);
    assert.deepEqual(state, [['/status'], 0, true, 'Synced just now', true, true, { name: 'Synced just now', role: 'push button', box: [0, 20, 40, 20], states: [] }, ['/elsewhere'], ['/g/1']]);
  });
});

/** A stand-in libatspi tree: nodes with states, roles, names, boxes and children. */
const FAKE_TREE = String.raw`
class St:
    def __init__(self, nick):
        self.value_nick = nick
class States:
    def __init__(self, names):
        self.names = names
    def contains(self, state):
        return state in self.names
    def get_states(self):
        return [St(n) for n in self.names]
class Box:
    def __init__(self, x, y, w, h):
        self.x, self.y, self.width, self.height = x, y, w, h
class StateType:
    SHOWING, VISIBLE, DEFUNCT, MANAGES_DESCENDANTS = 'showing', 'visible', 'defunct', 'manages-descendants'
class CoordType:
    SCREEN = 0
class Atspi:
    StateType = StateType
    CoordType = CoordType
class N(Node):
    def __init__(self, path, role, name='', box=(0, 0, 100, 20), kids=(), showing=True):
        Node.__init__(self, path, ':1.5')
        self.role, self.name, self.box, self.kids, self.showing, self.parent = role, name, box, list(kids), showing, None
        for kid in self.kids:
            kid.parent = self
    def add(self, kid):
        kid.parent = self
        self.kids.append(kid)
    def get_state_set(self):
        return States(['showing', 'visible'] if self.showing else ['visible'])
    def get_role_name(self):
        return self.role
    def get_name(self):
        return self.name
    def get_extents(self, coords):
        return Box(*self.box)
    def get_child_count(self):
        return len(self.kids)
    def get_child_at_index(self, i):
        return self.kids[i]
    def get_interfaces(self):
        return []
    def get_parent(self):
        return self.parent
tree.Atspi = Atspi
app = N(APP_ROOT, 'application')
def window(path, kids):
    top = N(path, 'frame', 'Win', (0, 0, 400, 300), kids)
    app.add(top)
    return top
def kept(top, key):
    walk = walk_root(Atspi, top, time.monotonic() + 60, 60, 4000)
    tree.cache[(':1.5', key)] = walk
    return walk
def names(walk):
    return [e['name'] for e in walk['elements']]
`;

describe('bridge parts walked again (python, stand-in tree)', () => {
  it('walks again the part that changed, splices it in, and gives what a fresh walk of the window gives', () => {
    const state = withTree(`${FAKE_TREE}
inner = N('/p2', 'panel', '', (0, 30, 400, 100), [N('/b2', 'push button', 'Two', (0, 30, 80, 20))])
hidden = N('/p3', 'panel', '', (0, 140, 400, 100), [N('/b3', 'push button', 'Three', (0, 140, 80, 20))], showing=False)
top = window('/w', [N('/p1', 'panel', '', (0, 0, 400, 300), [N('/b1', 'push button', 'One'), inner, hidden])])
other = window('/o', [N('/o1', 'push button', 'Elsewhere')])
other.showing = False  # a hint window, not showing: what changes in it changes nothing read
walk = kept(top, '/w')
one = walk['elements'][0]
before = names(walk)
inner.add(N('/b4', 'push button', 'Four', (0, 60, 80, 20)))
tree.on_event(Event('object:children-changed:add', inner))
# In a window not showing: nothing.
tree.on_event(Event('object:children-changed:add', other.kids[0]))
tree.place_changes(':1.5')
pending = sorted(walk.get('pending', {}))
said = tree.walk_parts(walk, time.monotonic() + 60, 60, 4000)
fresh = walk_root(Atspi, top, time.monotonic() + 60, 60, 4000)
print(json.dumps([before, pending, said, names(walk), names(fresh), walk['visited'] == fresh['visited'], walk['elements'][0] is one,
    walk['paths'] == fresh['paths'], walk['digest'] == digest_of(fresh['elements']), tree.app_gen.get(':1.5', 0)]))`);
    assert.deepEqual(state, [
      ['One', 'Two'],
      ['/p2'],
      '1 part(s), 3 nodes, after object:children-changed:add',
      ['One', 'Two', 'Four'],
      ['One', 'Two', 'Four'],
      true,
      true,
      true,
      true,
      0,
    ]);
  });

  it('a list is walked again with its rows; a node gone defunct, by its parent; a container renamed, not at all', () => {
    const state = withTree(`${FAKE_TREE}
rows = [N('/r%d' % i, 'list item', 'Row %d' % i, (0, 20 * i, 200, 20)) for i in range(3)]
listed = N('/list', 'list', '', (0, 0, 200, 100), rows)
gone = N('/gone', 'push button', 'Gone', (250, 0, 60, 20))
holder = N('/holder', 'panel', '', (250, 0, 150, 100), [gone])
side = N('/side', 'panel', 'Side panel', (250, 100, 150, 200), [N('/s1', 'push button', 'Kept', (250, 100, 60, 20))])
top = window('/w', [listed, holder, side])
walk = kept(top, '/w')
tree.on_event(Event('object:state-changed:showing', rows[1], 0))
tree.on_event(Event('object:state-changed:defunct', gone, 1))
tree.on_event(Event('object:property-change:accessible-name', side))
tree.place_changes(':1.5')
print(json.dumps(sorted(walk['pending'])))`);
    assert.deepEqual(state, ['/holder', '/list']);
  });

  it('what cannot be placed, or too much, has the window or the application walked anew; a walk cut short is walked whole', () => {
    const state = withTree(`${FAKE_TREE}
buttons = [N('/b%d' % i, 'push button', 'B%d' % i, (0, 10 * i, 50, 10)) for i in range(MAX_PARTS + 1)]
top = window('/w', buttons)
small = window('/s', [N('/s1', 'push button', 'S1')])
walk, cut = kept(top, '/w'), kept(small, '/s')
cut['parts'] = False
for b in buttons:
    tree.on_event(Event('object:bounds-changed', b))
tree.on_event(Event('object:children-changed:add', small.kids[0]))
tree.place_changes(':1.5')
dropped = sorted(k[1] for k in tree.dropped)
# A node no walk reached (under a hidden panel) has its window walked whole.
hidden = N('/h', 'panel', '', (0, 0, 10, 10), [N('/h1', 'push button', 'H')], showing=False)
top.add(hidden)
kept(top, '/w')
tree.on_event(Event('object:state-changed:showing', hidden.kids[0], 1))
tree.place_changes(':1.5')
unwalked = tree.dropped.get((':1.5', '/w'))
orphan = N('/orphan', 'push button', 'Orphan')  # no parent: the tree cannot be climbed
kept(top, '/w')
tree.on_event(Event('object:children-changed:add', orphan))
tree.place_changes(':1.5')
print(json.dumps([dropped, unwalked, sorted(k[1] for k in tree.cache), tree.app_gen.get(':1.5', 0), tree.app_why.get(':1.5')]))`);
    assert.deepEqual(state, [['/s', '/w'], 'a node not walked changed, after object:state-changed:showing', ['/w'], 1, 'object:children-changed:add (not placed)']);
  });
});

describe('which applications are asked for the top-level windows (python, stand-in applications)', () => {
  // GNOME Shell answers between the frames it paints (up to ~40 ms a call while busy, against
  // under 1 ms for an app): the active window is looked for in the applications first.
  it('on GNOME the shell is asked for the active window only when no application\'s window is active, and never for the window list', () => {
    const asked = withTree(`class Hints:
    lone_when_none_active = True
    compositor_apps = ('gnome-shell',)
    def active_hint(self):
        return None, None
X11_HINTS = Hints()
calls = {}
class States:
    def __init__(self, names):
        self.names = names
    def contains(self, state):
        return state in self.names
class StateType:
    SHOWING, ACTIVE = 'showing', 'active'
class Ext:
    x, y, width, height = 0, 0, 400, 300
class Acc:
    def __init__(self, owner, name, role, states=(), kids=()):
        self.owner, self.name, self.role, self.states, self.kids = owner, name, role, list(states), list(kids)
        self.app = type('App', (), {'bus_name': ':bus-' + owner})()
    def call(self):
        calls[self.owner] = calls.get(self.owner, 0) + 1
    def get_name(self):
        return self.name
    def get_role_name(self):
        self.call()
        return self.role
    def get_state_set(self):
        self.call()
        return States(self.states)
    def get_extents(self, coords):
        self.call()
        return Ext()
    def get_child_count(self):
        self.call()
        return len(self.kids)
    def get_child_at_index(self, i):
        self.call()
        return self.kids[i]
stage = Acc('gnome-shell', '', 'window', ['showing'])
editor = Acc('mousepad', 'notes.txt - Mousepad', 'frame', ['showing', 'active'])
calc = Acc('galculator', 'galculator', 'frame', ['showing'])
apps = [Acc('gnome-shell', 'gnome-shell', 'application', kids=[stage]), Acc('mousepad', 'mousepad', 'application', kids=[editor]),
    Acc('galculator', 'galculator', 'application', kids=[calc])]
class Desktop:
    def get_child_count(self):
        return len(apps)
    def get_child_at_index(self, i):
        return apps[i]
class Context:
    def pending(self):
        return False
class GLib:
    class MainContext:
        @staticmethod
        def default():
            return Context()
class Atspi:
    StateType = StateType
    class CoordType:
        SCREEN = 0
    @staticmethod
    def get_desktop(i):
        return Desktop()
tree.Atspi, tree.GLib = Atspi, GLib
out = []
def ask(what):
    calls.clear()
    chosen = what()
    out.append([[top.name for app, top, extents in chosen], calls.get('gnome-shell', 0)])
ask(lambda: tree.roots(True))
ask(lambda: tree.choose(tree.without_compositor(tree.apps()), False))
editor.states.remove('active')  # the overview, or a dialog of the shell, has the keyboard
ask(lambda: tree.roots(True))
print(json.dumps(out))`) as Array<[string[], number]>;
    assert.deepEqual(asked[0], [['notes.txt - Mousepad'], 0]);
    assert.deepEqual(asked[1], [['notes.txt - Mousepad', 'galculator'], 0]);
    assert.ok(asked[2]![1] > 0, 'the shell is asked once no application window is active');
  });
});
