// The desktop bridge's window hints on KDE Plasma's Wayland session (python3), in place of the X11
// half: KWin tells a Wayland client nothing about other windows, but any program of the session
// may run a KWin script (org.kde.KWin /Scripting, the way kdotool works), and the script can call
// back over D-Bus. Each question loads a small script that sends every window's caption, class,
// process, geometry, stacking and state to a private D-Bus object of this bridge; 4-6 ms a
// question on KWin 5.27. Toolkits report their accessible boxes relative to their own surface on
// Wayland, so the tree walk adds the surface's place (KWin's bufferGeometry).
export const BRIDGE_KWIN_SCRIPT = String.raw`
import tempfile

KWIN_LIST_JS = '''
var list = workspace.windowList ? workspace.windowList() : workspace.clientList();
var out = [];
function box(g) { return g ? [g.x, g.y, g.width, g.height] : null; }
for (var i = 0; i < list.length; i++) {
  var w = list[i];
  if (w.deleted) continue;
  out.push({id: String(w.internalId), title: String(w.caption || ''), app: String(w.resourceClass || ''), pid: w.pid,
    frame: box(w.frameGeometry), buffer: box(w.bufferGeometry), active: !!w.active, minimized: !!w.minimized,
    shown: w.onCurrentDesktop !== false && !w.minimized, dialog: !!w.dialog, normal: !!w.normalWindow,
    popup: !!(w.popupWindow || w.popupMenu || w.dropdownMenu || w.tooltip || w.comboBox), utility: !!w.utility,
    special: !!(w.desktopWindow || w.dock || w.splash || w.notification || w.onScreenDisplay || w.criticalNotification),
    order: typeof w.stackingOrder === 'number' ? w.stackingOrder : i, x11: !!w.windowId});
}
callDBus(GAI_SERVICE, '/ai/gai/kwin', 'ai.gai.KWin', 'Answer', JSON.stringify(out));
'''
KWIN_ANSWER_XML = '<node><interface name="ai.gai.KWin"><method name="Answer"><arg type="s" direction="in"/></method></interface></node>'

class KWinScripts:
    """Runs a KWin script and waits for what it sends back, on a bus connection of its own whose
    calls are dispatched on its own main context: the bridge's GLib loop may be busy walking a
    tree (and asking for a window's place) while the reader thread asks for the window list."""
    def __init__(self):
        from gi.repository import Gio, GLib
        self.Gio, self.GLib = Gio, GLib
        self.lock = threading.Lock()
        self.context = GLib.MainContext.new()
        self.bus = None
        self.answer = None

    def connect(self):
        Gio, GLib = self.Gio, self.GLib
        address = Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None)
        self.context.push_thread_default()
        try:
            bus = Gio.DBusConnection.new_for_address_sync(address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
            info = Gio.DBusNodeInfo.new_for_xml(KWIN_ANSWER_XML).interfaces[0]
            bus.register_object('/ai/gai/kwin', info, self.called, None, None)
        finally:
            self.context.pop_thread_default()
        self.bus = bus

    def called(self, conn, sender, path, iface, method, params, invocation):
        self.answer = params.unpack()[0]
        invocation.return_value(None)

    def scripting(self, method, fmt=None, args=None):
        return self.bus.call_sync('org.kde.KWin', '/Scripting', 'org.kde.kwin.Scripting', method,
            self.GLib.Variant(fmt, args) if fmt else None, None, 0, 3000, None)

    def run(self, js, timeout_s=2.0):
        with self.lock:
            if self.bus is None or self.bus.is_closed():
                self.connect()
            fd, path = tempfile.mkstemp(prefix='gai-kwin-', suffix='.js')
            name = 'gai-%d-%d' % (os.getpid(), self.GLib.random_int())
            try:
                os.write(fd, ('var GAI_SERVICE = %s;\n' % json.dumps(self.bus.get_unique_name()) + js).encode('utf-8'))
                os.close(fd)
                self.answer = None
                if self.scripting('loadScript', '(ss)', (path, name)).unpack()[0] < 0:
                    raise RuntimeError('KWin did not load GAI\'s window script')
                self.scripting('start')
                deadline = time.monotonic() + timeout_s
                while self.answer is None and time.monotonic() < deadline:
                    if not self.context.iteration(False):
                        time.sleep(0.0005)
                if self.answer is None:
                    raise RuntimeError('KWin ran GAI\'s window script but sent no answer within %.0f s' % timeout_s)
                return json.loads(self.answer)
            except self.GLib.Error as e:
                raise RuntimeError('KWin\'s scripting interface (org.kde.KWin /Scripting) did not answer: %s' % e.message)
            finally:
                try:
                    self.scripting('unloadScript', '(s)', (name,))
                except Exception:
                    pass
                try:
                    os.unlink(path)
                except OSError:
                    pass

def kwin_box(view):
    # The window's drawn area: its frame without server-side decorations, its surface without
    # client-side shadows; the overlap of the two is the client area either way.
    f, b = view.get('frame'), view.get('buffer')
    if not f or not b:
        return list(f or b or [0, 0, 0, 0])
    x, y = max(f[0], b[0]), max(f[1], b[1])
    return [x, y, max(0, min(f[0] + f[2], b[0] + b[2]) - x), max(0, min(f[1] + f[3], b[1] + b[3]) - y)]

class KWinHints(WaylandHints):
    window_relative = True
    # One answer serves the questions of one read (the active window, then each window's place).
    FRESH_S = 0.05

    def __init__(self):
        self.kwin = KWinScripts()
        self.cached = (0.0, None)

    def views(self):
        at, views = self.cached
        if views is not None and time.monotonic() - at < self.FRESH_S:
            return views
        views = sorted(self.kwin.run(KWIN_LIST_JS), key=lambda v: -v.get('order', 0))  # topmost first
        self.cached = (time.monotonic(), views)
        return views

    def info(self, view):
        kind = 'dialog' if view.get('dialog') else 'utility' if view.get('utility') else 'popup_menu' if view.get('popup') else 'normal'
        info = {'id': view['id'], 'title': view.get('title') or '', 'appName': view.get('app') or '', 'type': kind,
            'bounds': kwin_box(view), 'focused': bool(view.get('active')), 'visible': bool(view.get('shown')), 'xwayland': bool(view.get('x11'))}
        if view.get('pid'):
            info['pid'] = view['pid']
        return info

    def active_hint(self):
        try:
            for view in self.views():
                if view.get('active'):
                    return view.get('pid'), view.get('title') or ''
        except Exception:
            pass
        return None, None

    def windows(self):
        return [self.info(v) for v in self.views() if v.get('shown') and not v.get('special') and not v.get('popup')]

    def popups(self):
        return [self.info(v) for v in self.views() if v.get('shown') and v.get('popup')]

    def origin(self, pid, title, size, popup):
        """Where the surface of process pid whose reported size is size is on the screen, or None
        when no window (or two alike) fits. A popup is placed relative to the app's active window,
        as the toolkit reports it (as on sway)."""
        try:
            mine = [v for v in self.views() if v.get('pid') == pid and v.get('shown') and v.get('buffer')]
        except Exception:
            return None
        if popup:
            fits = [v for v in mine if v.get('active')] or (mine if len(mine) == 1 else [])
        else:
            fits = [v for v in mine if not v.get('popup') and abs(v['buffer'][2] - size[0]) <= 2 and abs(v['buffer'][3] - size[1]) <= 2]
            if len(fits) > 1:
                fits = [v for v in fits if (v.get('title') or '') == title] or fits
        if len(fits) != 1 and not (popup and fits):
            return None
        # An X11 app under XWayland reports screen boxes already.
        return (0, 0) if fits[0].get('x11') else (fits[0]['buffer'][0], fits[0]['buffer'][1])

    def answer(self, req):
        cmd = req.get('cmd')
        try:
            if cmd in ('active', 'activeId'):
                view = next((v for v in self.views() if v.get('active')), None)
                if cmd == 'activeId':
                    return {'windowId': view['id'] if view else None}
                return {'window': self.info(view) if view else None}
            if cmd == 'windows':
                return {'windows': self.windows()}
            if cmd == 'popups':
                return {'windows': self.popups()}
        except RuntimeError:
            raise
        except Exception as e:
            raise RuntimeError('KWin (%s): %s' % (type(e).__name__, e))
        raise RuntimeError('unknown command %r' % cmd)
`;
