// The parts of the bridge's kept walks (bridgeAtspiScript.ts): an event that changes one part of
// a window (children added or removed, a node shown, hidden or moved) has that part walked again
// alone when the window is next read, and spliced into the kept walk, instead of the whole
// window and every other window of its application. A click that opens a hint or adds a row
// then costs a walk of what changed (a few ms), not of the window (60-150 ms in Firefox or
// SpeedCrunch). A mixin of the Tree class, defined before it; the records it splices are the
// walk's (bridgeAtspiWalkScript.ts).
export const BRIDGE_ATSPI_PARTS_SCRIPT = String.raw`
DEFUNCT = 'object:state-changed:defunct'
PART_EVENTS = ('object:children-changed', 'object:state-changed:showing', 'object:state-changed:visible',
    'object:bounds-changed', 'object:text-changed', DEFUNCT, NAME_EVENT)
# Changes of one application waiting to be placed; past that its windows are walked anew.
MAX_CHANGES = 100
# Parts of one window waiting to be walked again; past that it is walked whole.
MAX_PARTS = 24
# Parent calls made to place one application's changes: a storm of changes in parts no walk
# holds is not climbed call by call; its windows are walked anew instead.
MAX_CLIMB_CALLS = 120
# An application's own root: above it no window of it lies.
APP_ROOT = '/org/a11y/atspi/accessible/root'

class TreeParts:
    """Changes placed in the kept walks (self.cache, self.changed... are the Tree's)."""

    def defer(self, bus, source, kind):
        """Notes a change in the tree of an application with kept walks, to be placed when a window
        is next read (place_changes). False when that is not worth it (no kept walk) or there are
        too many waiting: the application's windows are walked anew."""
        if not any(key[0] == bus for key in self.cache):
            return False
        waiting = self.changed.setdefault(bus, {})
        waiting[source.path] = (source, kind)
        return len(waiting) <= MAX_CHANGES

    def walk_anew(self, bus, kind):
        self.app_gen[bus] = self.app_gen.get(bus, 0) + 1
        self.app_why[bus] = kind
        self.changed.pop(bus, None)

    def place_changes(self, bus):
        """Finds the part of a kept walk each change of the application changes: the changed node
        when a walk visited it. A node no walk reached has the window holding its nearest visited
        ancestor walked whole (Chromium's page climbs to its window another way than the walk
        came down); nothing when no kept walk holds an ancestor and its top-level is not showing
        (a hint window). A row of a list (read in order, up to the last row showing)
        is that list. A window whose walk is not exact (cut short, GTK 4) is walked whole; when the tree
        cannot be climbed, all the application's windows are. A node gone defunct is not climbed
        from: its parent is walked again when a walk held it; when none did, it showed in none
        (an exact walk visits every node that shows), and only walks that are not exact are
        walked whole. A new name of a node a walk visited and kept no element of walks it again
        (a label named at last), unless it is a container's: that is only written into its
        record, for the elements under it (their ancestors)."""
        self.note_renamed(bus)
        changes = self.changed.pop(bus, None)
        if not changes:
            return
        walks = [(key, entry) for key, entry in self.cache.items() if key[0] == bus]
        climber = Climber(walks, self.Atspi)
        for source, kind in changes.values():
            found = climber.gone(source) if kind == DEFUNCT else climber.holder(source)
            if found == 'inexact':
                for key in [key for key, entry in walks if not entry.get('parts')]:
                    self.drop(key, kind)
                continue
            if found is False:
                self.walk_anew(bus, kind + ' (not placed)')
                return
            if found is None:
                continue
            key, entry, rec, own = found
            if kind == NAME_EVENT and own and rec.get('role') in CONTAINERS:
                # A container renamed (a page's title): no element of its own, but the elements
                # under it name it among their ancestors. A GTK 4 walk is not laid out again alone.
                if names_others(rec):
                    if self.gtk4.get(bus):
                        self.drop(key, 'a container renamed (GTK 4)')
                    else:
                        entry.setdefault('renamed', {})[rec['path']] = (rec, source)
                continue
            if not entry.get('parts'):
                self.drop(key, 'not exact, after ' + kind)
                continue
            if not own:
                # A node the walk never reached: its parents, climbed, need not be the way the walk
                # came down (Chromium's page), so the window is walked whole.
                self.drop(key, 'a node not walked changed, after ' + kind)
                continue
            while rec['up'] is not None and rec['up']['ordered']:
                rec = rec['up']
            pending = entry.setdefault('pending', {})
            pending[rec['path']] = (rec, kind)
            if len(pending) > MAX_PARTS:
                self.drop(key, 'too many parts changed')

    def note_renamed(self, bus):
        """The elements renamed in place (the Tree's name_dirty, read into their walk after this)
        that hold others: the names those others keep of their ancestors change with them."""
        marks = self.name_dirty.get(bus)
        if not marks:
            return
        for key, entry in self.cache.items():
            if key[0] != bus:
                continue
            for path, node in marks.items():
                rec = entry.get('recs', {}).get(path)
                if rec is not None and names_others(rec):
                    entry.setdefault('renamed', {})[path] = (rec, node)

    def drop(self, key, why):
        if self.cache.pop(key, None) is not None:
            if len(self.dropped) >= CACHE_LIMIT:
                self.dropped.clear()
            self.dropped[key] = why

    def walk_parts(self, entry, deadline, max_depth, nodes_left):
        """Walks again the changed parts of a kept walk, shallowest first (a part inside another
        is walked with it), and lays the walk out anew. What was walked (for diagnostics), None
        when nothing was, False when a part could not be walked whole (out of time or nodes):
        the window is then walked whole. Renamed nodes are written into their records first;
        laid out again, the elements under them name them anew."""
        renamed = rename(entry.pop('renamed', {}))
        if renamed is None:
            return False
        pending = entry.pop('pending', None)
        if not pending:
            if renamed:
                lay_out(entry)
            return None
        parts, nodes, kinds = 0, 0, set()
        for rec, kind in sorted(pending.values(), key=lambda p: p[0]['depth']):
            if entry['recs'].get(rec['path']) is not rec:
                continue  # walked again with a part above it, or gone with one
            old = below(rec)
            fresh = walk_root(self.Atspi, None, deadline, max_depth, nodes_left - (entry['visited'] - len(old)), None, rec, entry['office'])
            if fresh['truncated'] or fresh['top'] is None:
                return False
            splice(entry, rec, old, fresh)
            parts, nodes = parts + 1, nodes + fresh['visited']
            kinds.add(kind)
        lay_out(entry)
        entry['digest'] = digest_of(entry['elements'])
        return '%d part(s), %d nodes, after %s' % (parts, nodes, ', '.join(sorted(kinds)))

class Climber:
    """Climbs from changed nodes to the nearest node a kept walk visited, remembering the way, so
    changes under one parent climb it once."""

    def __init__(self, walks, Atspi):
        self.walks, self.calls, self.seen, self.Atspi = walks, 0, {}, Atspi

    def held(self, path):
        for key, entry in self.walks:
            rec = entry.get('recs', {}).get(path)
            if rec is not None:
                return key, entry, rec
        return None

    def gone(self, node):
        """The walk and record of the parent of a node gone defunct that a walk held ('own': it
        changed); None when it was a window's root; 'inexact' when no walk held it."""
        held = self.held(getattr(node, 'path', None))
        if held is None:
            return 'inexact'
        key, entry, rec = held
        return None if rec['up'] is None else (key, entry, rec['up'], True)

    def holder(self, node):
        """(key, walk, record, whether it is the node's own) of the nearest visited node at or
        above node; None when no kept walk holds one; False when the tree cannot be climbed."""
        way, found, top = [], None, None
        while True:
            path = getattr(node, 'path', None)
            if path is None:
                return False
            if path in self.seen:
                found = self.seen[path]
                if found and way:
                    found = found[:3] + (False,)
                break
            held = self.held(path)
            if held is not None:
                found = held + (not way,)
                break
            if path == APP_ROOT:
                # Under a top-level no kept walk holds: one not showing (a hint, a closed menu)
                # changes nothing read; a showing one the walk reached another way (Chromium's
                # page climbs to its application, not through its window) cannot be placed.
                if top is not None and showing(top, self.Atspi.StateType.SHOWING):
                    found = False
                break
            way.append(path)
            top = node
            self.calls += 1
            if self.calls > MAX_CLIMB_CALLS:
                return False
            try:
                node = node.get_parent()
            except Exception:
                return False
            if node is None:
                return False
        for path in way:
            self.seen[path] = found[:3] + (False,) if found else found
        return found

def names_others(rec):
    # Whether the elements under a record name it among their ancestors (below the window).
    return rec['depth'] > 0 and bool(rec['kids'])

def rename(renamed):
    """Writes the names now held by renamed nodes (path -> (record, node)) into their records:
    whether one changed; None when one cannot be read (gone)."""
    changed = False
    for rec, node in renamed.values():
        try:
            name = (node.get_name() or '').strip()
        except Exception:
            return None
        if rec.get('name', '') != name:
            rec['name'], changed = name, True
    return changed

def below(rec):
    """The records of a node and of everything walked under it."""
    out, stack = [], [rec]
    while stack:
        r = stack.pop()
        out.append(r)
        stack.extend(r['kids'])
    return out

def splice(entry, rec, old, fresh):
    """Puts the fresh walk of a part in place of its old records (old: below(rec))."""
    recs = entry['recs']
    for r in old:
        if recs.get(r['path']) is r:
            del recs[r['path']]
    recs.update(fresh['recs'])
    top, up = fresh['top'], rec['up']
    top['up'] = up
    if up is None:
        entry['top'] = top
    else:
        kids = up['kids']
        kids[next(i for i, kid in enumerate(kids) if kid is rec)] = top
    entry['visited'] += fresh['visited'] - len(old)
`;
