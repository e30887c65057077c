// The AT-SPI half of the desktop bridge's python3 helper (desktopBridge.ts), run by python3-gi
// with gir1.2-atspi-2.0 on the helper's GLib main loop: each top-level window's walk
// (bridgeAtspiWalkScript.ts) is cached. A change in one part of it (children, showing, bounds)
// has that part walked again (bridgeAtspiPartsScript.ts); other state changes, and the new text
// or name of an element it holds, are written into it (bridgeAtspiEventsScript.ts). It is
// walked whole when the window moves, or when a change cannot be placed in it.
export const BRIDGE_ATSPI_SCRIPT = String.raw`
CACHE_LIMIT = 64

class Tree(TreeEvents, TreeParts):
    def __init__(self):
        self.Atspi = None
        self.GLib = None
        self.problem = None
        self.app_gen = {}   # bus name -> events seen from that application
        self.app_why = {}   # bus name -> the last of those events, to say why a window was walked again
        self.app_patches = {}  # bus name -> state changes written into its cached walks
        self.text_dirty = {}   # bus name -> {path: node} of cached text elements whose text changed
        self.name_dirty = {}   # bus name -> {path: node} of cached elements whose name changed
        self.changed = {}   # bus name -> {path: (node, event)} of changes not yet placed in the kept walks
        self.dropped = {}   # (bus name, path) -> why its kept walk was thrown away by a change placed in it
        self.any_gen = 0    # events whose application could not be told
        self.cache = {}     # (bus name, path) -> walk of one top-level window
        self.pids = {}
        self.names = {}     # bus name -> application name
        self.gtk4 = {}      # bus name -> whether the application is GTK 4
        self.listener = None
        self.status = None
        self.builds = {}    # bus name -> [time of its last build event, events in that burst, a window created]
        self.last_read = [] # (walk, window answered) of the last read, for find_text

    def start(self):
        if self.Atspi is not None or self.problem is not None:
            return self.problem
        try:
            import gi
            gi.require_version('Atspi', '2.0')
            from gi.repository import Atspi, GLib, Gio
        except Exception as e:
            self.problem = 'python3 cannot import gi.repository.Atspi 2.0 (%s)' % e
            return self.problem
        # libatspi aborts the whole process when it finds no accessibility bus: look first.
        self.problem = find_bus_problem(Gio, GLib)
        if self.problem:
            return self.problem
        self.status = enable_accessibility(Gio, GLib)
        # One unanswering application must not stall a walk for libatspi's default 25 s.
        Atspi.set_timeout(CALL_TIMEOUT_MS, 15000)
        self.Atspi, self.GLib = Atspi, GLib
        self.listener = Atspi.EventListener.new(self.on_event)
        for name in EVENTS:
            try:
                self.listener.register(name)
            except Exception:
                pass
        return None

    def drain(self):
        # Dispatches the AT-SPI events already received, so the cache checks below see them.
        ctx = self.GLib.MainContext.default()
        for _ in range(5000):
            if not ctx.pending():
                break
            ctx.iteration(False)

    def apps(self):
        desktop = self.Atspi.get_desktop(0)
        out = []
        for i in range(desktop.get_child_count()):
            try:
                app = desktop.get_child_at_index(i)
                if app is not None:
                    out.append(app)
            except Exception:
                pass
        return out

    def toplevels(self, app):
        SHOWING = self.Atspi.StateType.SHOWING
        result = []
        try:
            for i in range(app.get_child_count()):
                top = app.get_child_at_index(i)
                if top is not None and top.get_state_set().contains(SHOWING):
                    result.append(top)
        except Exception:
            pass
        return result

    def roots(self, active_only):
        """(app, window, extents) to read. One round trip to each application first: the events
        it sent before answering (a new window, a state, a label) are then dispatched, so neither
        the choice of windows nor the cache checks miss them."""
        apps = self.apps()
        if active_only:
            # The X server knows which window is active at once; AT-SPI hears it a little later.
            # Only that window's application is asked, when it is in the tree.
            pid, title = X11_HINTS.active_hint()
            owners = [app for app in apps if pid is not None and self.pid(app) == pid]
            chosen = self.choose(owners, True, title) if owners else []
            if chosen:
                return chosen
            own = self.without_compositor(apps)
            chosen = self.choose(own, True) if len(own) < len(apps) else []
            if chosen:
                return chosen
        return self.choose(apps, active_only)

    def without_compositor(self, apps):
        # The applications other than the compositor's own interface (GNOME Shell), where the hints name one.
        names = getattr(X11_HINTS, 'compositor_apps', ())
        return [app for app in apps if self.name_of(app) not in names] if names else apps

    def name_of(self, app):
        # An application's name, asked once: it is fixed for the life of its bus name.
        bus = app.app.bus_name if app.app is not None else None
        if bus not in self.names:
            try:
                self.names[bus] = app.get_name() or ''
            except Exception:
                return ''
        return self.names[bus]

    def choose(self, apps, active_only, title=None):
        Atspi = self.Atspi
        ACTIVE = Atspi.StateType.ACTIVE
        for app in apps:
            try:
                if app.get_child_count() > 0:
                    app.get_child_at_index(0).get_extents(Atspi.CoordType.SCREEN)
            except Exception:
                pass  # gone, or not answering
        self.drain()
        found = []
        for app in apps:
            for top in self.toplevels(app):
                try:
                    e = top.get_extents(Atspi.CoordType.SCREEN)
                    found.append((app, top, (e.x, e.y, e.width, e.height)))
                except Exception:
                    pass
        if not active_only:
            return found
        active = [f for f in found if showing(f[1], ACTIVE)]
        if not active and getattr(X11_HINTS, 'lone_when_none_active', False):
            # The compositor names no active window and the toolkit did not either: a lone
            # window is the one the person sees; of several, none can be told.
            tops = [f for f in found if f[1].get_role_name() not in POPUPS]
            return found if len(tops) == 1 else []
        if not active and title:
            # The X server made it active and the toolkit has not said so yet: the window by its title.
            active = [f for f in found if (f[1].get_name() or '') == title]
        for app, top, _ in active[:1]:
            # Its open popups (combo lists, context menus) are separate toplevels of the app.
            return [f for f in found if f[1] is top] + [f for f in found if f[0] is app and f[1] is not top and f[1].get_role_name() in POPUPS]
        return []

    def pid(self, app):
        bus = app.app.bus_name if app.app is not None else None
        if bus not in self.pids:
            try:
                self.pids[bus] = app.get_process_id()
            except Exception:
                self.pids[bus] = None
        return self.pids[bus]

    def gtk4_of(self, app, root, extents, places):
        """The GTK 4 walk's context for this window, None for other toolkits, False when a GTK 4
        window cannot be placed on the screen."""
        bus = app.app.bus_name if app.app is not None else None
        if bus not in self.gtk4:
            self.gtk4[bus] = gtk4_toolkit(app)
        if not self.gtk4[bus]:
            return None
        pid = self.pid(app)
        if pid not in places:
            places[pid] = Gtk4Places(X11_HINTS, pid)
        shift = places[pid].frame_shift((root.get_name() or '').strip(), extents)
        return False if shift is None else {'shift': shift, 'places': places[pid]}

    def read(self, active_only, max_depth, max_nodes, budget, fresh):
        """Per top-level window: its elements, from the cache when nothing changed there."""
        Atspi = self.Atspi
        self.drain()
        for bus in list(self.builds):
            self.settle(bus)
        deadline = time.monotonic() + budget
        windows, visited, truncated, cached = [], 0, False, 0
        walked = []  # 'title ms' of each window walked anew, for diagnostics
        places = {}
        self.last_read = []
        for app, root, extents in self.roots(active_only):
            try:
                bus = root.app.bus_name
                key = (bus, root.path)
                self.place_changes(bus)
                gtk4 = self.gtk4_of(app, root, extents, places)
                if gtk4 is False:
                    truncated = True  # its tree cannot be placed: OCR reads it
                    continue
                origin = None
                if not gtk4 and getattr(X11_HINTS, 'window_relative', False):
                    # Wayland: boxes come relative to the window; the compositor says where it is.
                    origin = X11_HINTS.origin(self.pid(app), (root.get_name() or '').strip(), extents[2:4], root.get_role_name() in POPUPS)
                    if origin is None:
                        truncated = True
                        continue
                # A GTK 4 window reports the same boxes wherever it is: where X puts it counts.
                stamp = (self.app_gen.get(bus, 0), self.any_gen, extents, max_depth, gtk4['shift'] if gtk4 else None)
                entry = None if fresh else self.cache.get(key)
                dirty = self.text_dirty.get(bus, {})
                renamed = self.name_dirty.get(bus, {})
                usable = entry is not None and entry['stamp'] == stamp and entry['visited'] <= max_nodes - visited
                unread = None
                if usable:
                    patches, began = self.app_patches.get(bus, 0), time.monotonic()
                    parts = self.walk_parts(entry, deadline, max_depth, max_nodes - visited)
                    if parts:
                        walked.append('%s %d %s' % ((root.get_name() or '').strip()[:24], round(1000 * (time.monotonic() - began)), parts))
                        if patches != self.app_patches.get(bus, 0):
                            self.cache.pop(key, None)  # a state written in while it ran may be missing
                    unread = ('a changed part not walked whole' if parts is False else 'a changed text not read in place' if not refresh_texts(Atspi, entry, dirty)
                        else 'a changed name not read in place' if not refresh_names(entry, renamed) else None)
                if usable and unread is None:
                    walk, cached = entry, cached + 1
                    for marks in (dirty, renamed):
                        for path in [path for path in marks if path in entry['paths']]:
                            del marks[path]
                else:
                    patches = self.app_patches.get(bus, 0)
                    marked = set(dirty) | set(renamed)
                    began = time.monotonic()
                    walk = walk_root(Atspi, root, deadline, max_depth, max_nodes - visited, gtk4)
                    why = unread or self.dropped.pop(key, None) or stale_why(entry, stamp, max_nodes - visited, self.app_why.get(bus, '?'), fresh)
                    walked.append('%s %d %s' % ((root.get_name() or '').strip()[:24], round(1000 * (time.monotonic() - began)), why))
                    for path in marked.intersection(walk['paths']):
                        dirty.pop(path, None)
                        renamed.pop(path, None)
                    walk['stamp'] = stamp
                    walk['digest'] = digest_of(walk['elements'])
                    self.cache.pop(key, None)
                    # A state written into the cache while this walk ran may be missing from it.
                    if not walk['timedOut'] and patches == self.app_patches.get(bus, 0):
                        self.cache[key] = walk
                        while len(self.cache) > CACHE_LIMIT:
                            self.cache.pop(next(iter(self.cache)))
                states = root.get_state_set()
                active = states.contains(Atspi.StateType.ACTIVE)
                own = [placed(e, origin) for e in walk['elements'] if not e.get('popup')]
                popped = [e for e in walk['elements'] if e.get('popup')]
                windows.append({'window': {'name': (root.get_name() or '').strip(), 'role': root.get_role_name() or '',
                    'active': active}, 'app': app.get_name() or '', 'pid': self.pid(app),
                    'elements': own, 'digest': walk['digest'], 'bus': bus})
                self.last_read.append((walk, windows[-1], origin))
                if popped:
                    # A GTK 4 popover's widgets, as a popup of their own: drawn above every window.
                    windows.append({'window': {'name': '', 'role': 'menu', 'active': active}, 'app': app.get_name() or '',
                        'pid': self.pid(app), 'elements': popped, 'digest': walk['digest'], 'bus': bus})
                visited += walk['visited']
                truncated = truncated or walk['truncated']
            except Exception:
                continue  # the window went away or its application does not answer
        return {'windows': windows, 'visited': visited, 'truncated': truncated, 'cached': cached, 'walked': walked}

    def find_text(self, active_only, query, max_depth, max_nodes, budget):
        """Where the windows' text elements (read as read() does) draw query, as elements of
        their windows: the box of each occurrence, named by the text matched."""
        self.read(active_only, max_depth, max_nodes, budget, False)
        windows = []
        for walk, window, origin in self.last_read:
            found = []
            for entry in walk.get('textNodes', []):
                for box, text in text_boxes(self.Atspi, entry, query):
                    found.append(placed({'name': text, 'role': 'text range', 'box': box, 'states': []}, origin))
            if found:
                windows.append({'window': window['window'], 'app': window['app'], 'pid': window['pid'], 'elements': found})
        return {'windows': windows}

TREE = Tree()
# Its own X connection (the X11 half answers on another thread), or sway's IPC on Wayland.
X11_HINTS = window_hints()

def placed(element, origin):
    """The element moved from its window's coordinates to the screen's (Wayland), else itself."""
    if not origin or origin == (0, 0):
        return element
    dx, dy = origin
    out = dict(element)
    b = element['box']
    out['box'] = (b[0] + dx, b[1] + dy, b[2], b[3])
    if element.get('popups'):
        out['popups'] = [(p[0] + dx, p[1] + dy, p[2], p[3]) for p in element['popups']]
    return out

def showing(node, state):
    try:
        return node.get_state_set().contains(state)
    except Exception:
        return False

def bus_of(node):
    # The D-Bus name of the application a node belongs to, None when it cannot be told.
    try:
        return node.app.bus_name if node is not None and node.app is not None else None
    except Exception:
        return None

def digest_of(elements):
    h = hashlib.sha1()
    for e in elements:
        b = e['box']
        h.update(('%s\x1f%s\x1f%d,%d,%d,%d\x1e' % (e['role'], e['name'], b[0] // 4, b[1] // 4, b[2] // 4, b[3] // 4)).encode('utf-8', 'replace'))
    return h.hexdigest()[:16]

def answer_atspi(req):
    cmd = req.get('cmd')
    problem = TREE.start()
    if problem:
        raise RuntimeError(problem)
    budget = float(req.get('budget', 3.5))
    max_nodes = int(req.get('maxNodes', 4000))
    if cmd == 'probe':
        return {'apps': len(TREE.apps()), 'status': TREE.status}
    if cmd == 'focused':
        TREE.drain()
        return {'focused': focused_in_active(TREE.Atspi, TREE.apps(), max_nodes, time.monotonic() + budget)}
    if cmd == 'toplevels':
        # Top-level windows, no walk (the active one when asked), for a compositor that names none (GNOME).
        TREE.drain()
        found = TREE.roots(True) if req.get('active', True) else TREE.choose(TREE.without_compositor(TREE.apps()), False)
        return {'windows': [{'window': {'name': (root.get_name() or '').strip(), 'role': root.get_role_name() or '',
            'active': showing(root, TREE.Atspi.StateType.ACTIVE)}, 'app': app.get_name() or '', 'pid': TREE.pid(app), 'box': list(extents)}
            for app, root, extents in found if root.get_role_name() not in POPUPS]}
    if cmd == 'elements':
        return TREE.read(bool(req.get('active', True)), int(req.get('maxDepth', 60)), max_nodes, budget, bool(req.get('fresh')))
    if cmd == 'insert':
        return insert_text(TREE, str(req.get('text', '')), max_nodes, time.monotonic() + budget)
    if cmd == 'act':
        return act(TREE, str(req.get('bus', '')), str(req.get('ref', '')), str(req.get('kind', '')))
    if cmd == 'text':
        return TREE.find_text(bool(req.get('active', True)), str(req.get('query', '')), int(req.get('maxDepth', 60)), max_nodes, budget)
    if cmd == 'digest':
        read = TREE.read(True, int(req.get('maxDepth', 60)), max_nodes, budget, False)
        if not read['windows']:
            return {'digest': None}
        return {'digest': hashlib.sha1('|'.join(w['digest'] for w in read['windows']).encode()).hexdigest()[:16]}
    raise RuntimeError('unknown command %r' % cmd)
`;
