// The X11 half of the desktop bridge's python3 helper (desktopBridge.ts): windows over one
// persistent python3-xlib connection, a few X round trips a question instead of three programs.
// Answered on the thread that reads stdin, so a long AT-SPI walk never delays a window lookup.
export const BRIDGE_X11_SCRIPT = String.raw`
class X11Windows:
    def __init__(self):
        self.d = None
        self.atoms = {}

    def display(self):
        if self.d is None:
            from Xlib import display
            self.d = display.Display()
            self.atoms = {}
        return self.d

    def reset(self):
        # A broken connection (the display went away) is reopened on the next question.
        try:
            if self.d is not None:
                self.d.close()
        except Exception:
            pass
        self.d = None

    def atom(self, name):
        if name not in self.atoms:
            self.atoms[name] = self.display().intern_atom(name)
        return self.atoms[name]

    def prop(self, w, name):
        from Xlib import X
        p = w.get_full_property(self.atom(name), X.AnyPropertyType)
        return p.value if p is not None else None

    def text(self, w, name):
        value = self.prop(w, name)
        if value is None:
            return None
        if isinstance(value, bytes):
            return value.decode('utf-8' if name == '_NET_WM_NAME' else 'latin-1', 'replace')
        return str(value)

    def active_id(self):
        root = self.display().screen().root
        value = self.prop(root, '_NET_ACTIVE_WINDOW')
        wid = int(value[0]) if value is not None and len(value) > 0 else 0
        return wid or None

    def active_hint(self):
        """The active window's (_NET_WM_PID, title), or (None, None); never raises (a hint, not an answer)."""
        try:
            wid = self.active_id()
            if not wid:
                return None, None
            w = self.display().create_resource_object('window', wid)
            pids = self.prop(w, '_NET_WM_PID')
            title = self.text(w, '_NET_WM_NAME') or self.text(w, 'WM_NAME') or ''
            return (int(pids[0]) if pids is not None and len(pids) > 0 else None), title
        except Exception:
            self.reset()
            return None, None

    def info(self, wid):
        """The window's title, class, pid, type and client box in root coordinates; None when it is gone."""
        from Xlib import error
        d = self.display()
        root = d.screen().root
        w = d.create_resource_object('window', wid)
        try:
            title = self.text(w, '_NET_WM_NAME') or self.text(w, 'WM_NAME') or ''
            wm_class = w.get_wm_class()
            pids = self.prop(w, '_NET_WM_PID')
            pid = int(pids[0]) if pids is not None and len(pids) > 0 else None
            geometry = w.get_geometry()
            origin = root.translate_coords(w, 0, 0)
            types = self.prop(w, '_NET_WM_WINDOW_TYPE')
            kind = None
            if types is not None and len(types) > 0:
                kind = d.get_atom_name(int(types[0])).replace('_NET_WM_WINDOW_TYPE_', '').lower()
            elif w.get_wm_transient_for() is not None:
                kind = 'dialog'  # EWMH: a transient window without a type is a dialog
            else:
                kind = 'normal'
        except (error.BadWindow, error.BadDrawable, error.BadMatch):
            return None
        app = ''
        if wm_class:
            app = wm_class[1] or wm_class[0] or ''
        if not app and pid:
            try:
                with open('/proc/%d/comm' % pid) as f:
                    app = f.read().strip()
            except Exception:
                pass
        info = {'id': '0x%x' % wid, 'title': title, 'appName': app, 'type': kind,
            'bounds': [origin.x, origin.y, geometry.width, geometry.height]}
        if pid:
            info['pid'] = pid
        return info

    def windows(self):
        """Mapped top-level clients, topmost first."""
        from Xlib import X, error
        d = self.display()
        root = d.screen().root
        stack = self.prop(root, '_NET_CLIENT_LIST_STACKING')
        if stack is None:
            stack = self.prop(root, '_NET_CLIENT_LIST')
        out = []
        for wid in reversed([int(v) for v in (stack if stack is not None else [])]):
            try:
                if d.create_resource_object('window', wid).get_attributes().map_state != X.IsViewable:
                    continue  # minimised or on another desktop
            except (error.BadWindow, error.BadDrawable):
                continue
            info = self.info(wid)
            if info is not None:
                out.append(info)
        return out

    def popups(self):
        """Viewable override-redirect windows (menus, dropdowns, tooltips), topmost first, each named
        by its own WM_CLASS or process, or by the window it is transient for when the same process
        owns both (a claimed owner alone is not trusted: any client can set WM_TRANSIENT_FOR)."""
        from Xlib import X, error
        d = self.display()
        root = d.screen().root
        out = []
        for w in reversed(root.query_tree().children):  # XQueryTree lists bottom to top
            try:
                attrs = w.get_attributes()
                if not attrs.override_redirect or attrs.map_state != X.IsViewable:
                    continue
                geometry = w.get_geometry()
                if geometry.width <= 1 or geometry.height <= 1:
                    continue  # toolkits keep 1x1 helper windows mapped off-screen
                owner = w.get_wm_transient_for()
            except (error.BadWindow, error.BadDrawable, error.BadMatch):
                continue
            info = self.info(w.id)
            if info is None:
                continue
            if owner is not None and info.get('pid'):
                owned = self.info(owner.id)
                if owned is not None and owned['appName'] and owned.get('pid') == info['pid']:
                    info['appName'] = owned['appName']
            if info['type'] == 'normal':
                info['type'] = 'popup'
            if info['appName']:
                out.append(info)
        return out

X11 = X11Windows()

def answer_x11(req):
    cmd = req.get('cmd')
    try:
        if cmd == 'activeId':
            wid = X11.active_id()
            return {'windowId': '0x%x' % wid if wid else None}
        if cmd == 'active':
            wid = X11.active_id()
            return {'window': X11.info(wid) if wid else None}
        if cmd == 'windows':
            return {'windows': X11.windows()}
        if cmd == 'popups':
            return {'windows': X11.popups()}
    except ImportError as e:
        raise RuntimeError('python3 cannot import Xlib (install the Debian package python3-xlib): %s' % e)
    except Exception as e:
        X11.reset()
        raise RuntimeError('X11 (%s): %s: %s' % (os.environ.get('DISPLAY', 'DISPLAY unset'), type(e).__name__, e))
    raise RuntimeError('unknown command %r' % cmd)
`;
