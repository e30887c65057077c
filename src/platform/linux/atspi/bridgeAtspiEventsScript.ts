// The AT-SPI events half of the bridge's tree (bridgeAtspiScript.ts): which events make a kept
// walk of a window stale, which are written into it in place (states, texts, names), and, for
// diagnostics, why a walk was not kept. A mixin of the Tree class, defined before it.
export const BRIDGE_ATSPI_EVENTS_SCRIPT = String.raw`
# What makes a cached walk stale, or a part of it (PART_EVENTS). Caret moves and selections of text do not.
EVENTS = ['object:children-changed', 'object:state-changed', 'object:bounds-changed', 'object:text-changed',
    'object:property-change:accessible-name', 'window:activate', 'window:deactivate', 'window:create',
    'window:destroy', 'window:minimize', 'window:restore']
TEXT_EVENT = 'object:text-changed'
NAME_EVENT = 'object:property-change:accessible-name'
# Elements of one application waiting to be read again (texts, names); past that its windows are walked anew.
MAX_DIRTY_TEXTS = 200
STATE_EVENT = 'object:state-changed:'
# States that decide what a walk includes; any other state change (focused, active, checked,
# selected...) is written into the cached element it belongs to, so switching between windows,
# which moves the focus, does not throw their walks away.
STRUCTURAL_STATES = {'showing', 'visible', 'defunct', 'iconified', 'manages-descendants'}
# A window being built sends a storm of window:create and children-changed events; a walk inside
# it asks for objects the app is still making or about to drop. Such a walk waits for a quiet gap,
# at most SETTLE_MAX s.
BUILD_EVENTS = ('window:create', 'object:children-changed')
SETTLE_QUIET = 0.12
SETTLE_MAX = 0.8
STORM_EVENTS = 12

class TreeEvents:
    """What the Tree hears from the applications (self.cache, self.app_gen... are the Tree's)."""

    def on_event(self, event):
        source = event.source
        bus = bus_of(source)
        if bus is None:
            # An object gone defunct has lost its application; the event's sender (its
            # application's root, where libatspi's bindings give it) has not.
            bus = bus_of(getattr(event, 'sender', None))
        kind = event.type or ''
        if bus is None and kind == STATE_EVENT + 'defunct':
            # Still unknown: only the walks holding that object are thrown away, not every
            # window's (LibreOffice and Firefox send thousands of these). A walk that held none
            # of it shows no element of it; what else it drops, its parent tells (children-changed).
            self.forget_path(getattr(source, 'path', None))
            return
        if bus and kind in ('window:activate', 'window:deactivate'):
            return  # a window's own active state is read afresh each time
        if bus and source is not None and kind.startswith(STATE_EVENT) and kind[len(STATE_EVENT):] not in STRUCTURAL_STATES:
            self.patch(bus, source.path, kind[len(STATE_EVENT):], event.detail1 != 0)
            return
        if bus and source is not None and kind.startswith(TEXT_EVENT) and self.holds_text(bus, source.path):
            # Read again when a walk is asked for, not on each keystroke.
            if self.mark(self.text_dirty, bus, source):
                return
        if bus and source is not None and kind == NAME_EVENT and not self.gtk4.get(bus) and any(self.holding(bus, source.path)):
            # A label or a page renaming itself (a status, a clock, a title) is read again when
            # a walk is asked for; its window is not walked again for it. GTK 4 names are made
            # up from their labels by the walk: those windows are walked again.
            if self.mark(self.name_dirty, bus, source):
                return
        if bus:
            if kind.startswith(BUILD_EVENTS):
                self.note_build(bus, kind.startswith('window:create'))
            # A change inside a window has that part walked again when a window is next read.
            if source is not None and kind.startswith(PART_EVENTS) and self.defer(bus, source, kind):
                return
            self.walk_anew(bus, kind)
        else:
            self.any_gen += 1

    def mark(self, marks, bus, source):
        """Notes a cached element to read again in place (marks: bus -> {path: node}); False when
        the application has too many waiting, and its windows are to be walked anew instead."""
        waiting = marks.setdefault(bus, {})
        waiting[source.path] = source
        if len(waiting) <= MAX_DIRTY_TEXTS:
            return True
        del marks[bus]
        return False

    def forget_path(self, path):
        if path is None:
            self.any_gen += 1
            return
        for key in [key for key, entry in self.cache.items() if path in entry['paths']]:
            del self.cache[key]

    def holding(self, bus, path):
        """(walk, index of the element) of each cached walk of the application that holds the object."""
        for key, entry in self.cache.items():
            index = entry['paths'].get(path) if key[0] == bus else None
            if index is not None:
                yield entry, index

    def holds_text(self, bus, path):
        return any(entry['elements'][index]['role'] in TEXT_ROLES for entry, index in self.holding(bus, path))

    def note_build(self, bus, created):
        now = time.monotonic()
        burst = self.builds.get(bus)
        if burst is None or now - burst[0] >= SETTLE_QUIET:
            burst = [now, 0, False]
        burst[0], burst[1], burst[2] = now, burst[1] + 1, burst[2] or created
        self.builds[bus] = burst

    def settle(self, bus):
        """Waits (bounded) while the application is building a window: a new window, or a storm
        of children changes, less than SETTLE_QUIET s ago."""
        deadline = time.monotonic() + SETTLE_MAX
        while True:
            self.drain()
            burst = self.builds.get(bus)
            now = time.monotonic()
            if burst is None or now - burst[0] >= SETTLE_QUIET or not (burst[2] or burst[1] >= STORM_EVENTS):
                return
            if now >= deadline:
                return
            time.sleep(min(SETTLE_QUIET - (now - burst[0]), deadline - now) + 0.005)

    def patch(self, bus, path, state, on):
        self.app_patches[bus] = self.app_patches.get(bus, 0) + 1
        for entry, index in self.holding(bus, path):
            states = entry['elements'][index]['states']
            if on and state not in states:
                states.append(state)
            elif not on and state in states:
                states.remove(state)

def refresh_names(walk, nodes):
    """Writes into a cached walk the names now held by those of its elements that said their
    name changed (nodes: path -> node). An element left with no name stays, nameless: it matches
    no label (Chromium clears and sets names of its page's texts as its window loses and gains
    the focus). False when one cannot be read (gone): the window is walked again."""
    changed = False
    for path, node in nodes.items():
        index = walk['paths'].get(path)
        if index is None:
            continue
        try:
            name = (node.get_name() or '').strip()
        except Exception:
            return False
        item = walk['elements'][index]
        if item['name'] != name:
            item['name'], changed = name, True
            if item.get('text') == name:
                item.pop('text')
    if changed:
        walk['digest'] = digest_of(walk['elements'])
    return True

def stale_why(entry, stamp, nodes_left, event, fresh):
    """Why a window's kept walk was not used (diagnostics, in the read's 'walked')."""
    if fresh:
        return 'asked afresh'
    if entry is None:
        return 'new'
    if entry['stamp'][0] != stamp[0]:
        return 'after ' + event
    if entry['stamp'][1] != stamp[1]:
        return 'after an event of no known application'
    if entry['stamp'][2] != stamp[2]:
        return 'moved'
    if entry['stamp'] != stamp:
        return 'depth or GTK 4 place'
    if entry['visited'] > nodes_left:
        return 'over the node budget left (%d > %d)' % (entry['visited'], nodes_left)
    return '?'

`;
