import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { BRIDGE_ATSPI_ACT_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiActScript';
import { BRIDGE_ATSPI_CELLS_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiCellsScript';
import { BRIDGE_ATSPI_EVENTS_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiEventsScript';
import { BRIDGE_ATSPI_PARTS_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiPartsScript';
import { BRIDGE_ATSPI_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiScript';
import { BRIDGE_ATSPI_TEXT_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiTextScript';
import { BRIDGE_ATSPI_WALK_SCRIPT } from '../../src/platform/linux/atspi/bridgeAtspiWalkScript';

// The named ancestors each element of the bridge's walks carries (issue 23: an anchor for recorded
// routines), in python3 with a stand-in libatspi tree: taken from the names the walk read, kept
// right when a part of the window is walked again or a node above is renamed, and never in the
// digest. Real apps: realAppsAncestors.test.ts.

/** Runs `body` after the bridge's Tree and a stand-in tree (`window`, `kept`, `N`); returns its JSON. */
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
class Event:
    def __init__(self, kind, source, detail1=0):
        self.type, self.source, self.detail1 = kind, source, detail1
class States:
    def __init__(self, names):
        self.names = names
    def contains(self, state):
        return state in self.names
    def get_states(self):
        return []
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
class N:
    calls = 0  # get_name calls of all nodes
    def __init__(self, path, role, name='', box=(0, 0, 100, 20), kids=()):
        self.path, self.role, self.name, self.box, self.kids, self.parent = path, role, name, box, list(kids), None
        self.app = type('App', (), {'bus_name': ':1.5'})()
        for kid in self.kids:
            kid.parent = self
    def add(self, kid):
        kid.parent = self
        self.kids.append(kid)
    def get_state_set(self):
        return States(['showing', 'visible'])
    def get_role_name(self):
        return self.role
    def get_name(self):
        N.calls += 1
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
tree = Tree()
tree.Atspi = Atspi
app = N(APP_ROOT, 'application')
def window(kids):
    top = N('/w', 'frame', 'notes.txt - Editor', (0, 0, 400, 300), kids)
    app.add(top)
    return top
def walk_of(top):
    return walk_root(Atspi, top, time.monotonic() + 60, 60, 4000)
def kept(top):
    walk = walk_of(top)
    walk['digest'] = digest_of(walk['elements'])
    tree.cache[(':1.5', '/w')] = walk
    return walk
def anc(walk, name):
    return [[a['role'], a['name']] for a in next(e for e in walk['elements'] if e['name'] == name).get('ancestors', [])]
${body}`;
  return JSON.parse(execFileSync('python3', ['-c', script], { encoding: 'utf8' })) as unknown;
}

describe('named ancestors of the bridge\'s elements (python, stand-in tree)', () => {
  it('a menu item names its menu, not the unnamed menu bar nor the window; the nearest 4 are kept, outermost first', () => {
    const found = withTree(`items = [N('/undo', 'menu item', 'Undo', (10, 30, 80, 20)), N('/upper', 'menu item', 'To Uppercase', (100, 60, 80, 20))]
convert = N('/convert', 'menu', 'Convert', (10, 60, 80, 20), [items[1]])
edit = N('/edit', 'menu', 'Edit', (10, 10, 40, 20), [items[0], convert])
deep = N('/deep', 'push button', 'Deep', (200, 200, 40, 20))
for i in range(5, 0, -1):
    deep = N('/d%d' % i, 'panel', 'Pane %d' % i, (150, 150, 200, 100), [deep])
top = window([N('/filler', 'filler', '', (0, 0, 400, 300), [N('/bar', 'menu bar', '', (0, 0, 400, 30), [edit]), deep])])
N.calls = 0
walk = walk_of(top)
# One name read a node, as before: the ancestors come from the names the walk read anyway.
print(json.dumps([anc(walk, 'Edit'), anc(walk, 'Undo'), anc(walk, 'To Uppercase'), anc(walk, 'Deep'), 'ancestors' in walk['elements'][0],
    N.calls == walk['visited']]))`);
    assert.deepEqual(found, [
      [],
      [['menu', 'Edit']],
      [['menu', 'Edit'], ['menu', 'Convert']],
      [['panel', 'Pane 2'], ['panel', 'Pane 3'], ['panel', 'Pane 4'], ['panel', 'Pane 5']],
      false,
      true,
    ]);
  });

  it('a part walked again names what lies above it, as a fresh walk of the window does; the digest is the same', () => {
    const found = withTree(`inner = N('/inner', 'filler', '', (0, 30, 400, 100), [N('/b1', 'push button', 'One', (0, 30, 80, 20))])
pane = N('/pane', 'panel', 'Replace', (0, 30, 400, 200), [inner])
top = window([N('/tabs', 'page tab list', '', (0, 0, 400, 300), [N('/tab', 'page tab', 'Search', (0, 0, 60, 20), [pane])])])
walk = kept(top)
inner.add(N('/b2', 'push button', 'Two', (0, 60, 80, 20)))
tree.on_event(Event('object:children-changed:add', inner))
tree.place_changes(':1.5')
said = tree.walk_parts(walk, time.monotonic() + 60, 60, 4000)
fresh = walk_of(top)
print(json.dumps([said, anc(walk, 'One'), anc(walk, 'Two'), anc(fresh, 'Two'), walk['digest'] == digest_of(fresh['elements'])]))`);
    assert.deepEqual(found, [
      '1 part(s), 3 nodes, after object:children-changed:add',
      [['page tab', 'Search'], ['panel', 'Replace']],
      [['page tab', 'Search'], ['panel', 'Replace']],
      [['page tab', 'Search'], ['panel', 'Replace']],
      true,
    ]);
  });

  it('a container or an element renamed above others is written into the walk, not walked again; the digest stays', () => {
    const found = withTree(`pane = N('/pane', 'panel', 'Find', (0, 30, 400, 200), [N('/b1', 'push button', 'Go', (0, 30, 80, 20))])
tab = N('/tab', 'page tab', 'notes.txt', (0, 0, 60, 20), [N('/t', 'text', 'Body', (0, 30, 400, 200))])
top = window([pane, tab])
walk = kept(top)
digest, visited = walk['digest'], walk['visited']
pane.name, tab.name, top.name = 'Find and Replace', '*notes.txt', '*notes.txt - Editor'
for node in (pane, tab, top):
    tree.on_event(Event('object:property-change:accessible-name', node))
tree.place_changes(':1.5')
said = tree.walk_parts(walk, time.monotonic() + 60, 60, 4000)
kept_names = refresh_names(walk, tree.name_dirty.get(':1.5', {}))
print(json.dumps([said, tree.dropped, anc(walk, 'Go'), anc(walk, 'Body'), anc(walk, '*notes.txt'), walk['digest'] == digest_of(walk['elements']),
    digest == digest_of([dict(e, name='notes.txt') if e['role'] == 'page tab' else e for e in walk['elements']]), kept_names]))`);
    assert.deepEqual(found, [null, {}, [['panel', 'Find and Replace']], [['page tab', '*notes.txt']], [], true, true, true]);
  });
});
