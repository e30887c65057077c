// The desktop bridge's window hints on sway (python3), in place of the X11 half: a Wayland client
// cannot ask the display server where windows are, but sway's IPC tree says. On Wayland every
// toolkit reports its accessible boxes relative to its own window, so the tree walk adds the
// window's place on the screen, found here by the process and the window's size and title.
export const BRIDGE_SWAY_SCRIPT = String.raw`
import socket, struct

class SwayHints(WaylandHints):
    window_relative = True

    # One tree serves the questions of one read (the active window, then each window's place).
    FRESH_S = 0.05

    def __init__(self, path):
        self.path = path
        self.cached = (0.0, None)

    def ask(self, kind, payload=b''):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(2.0)
        try:
            s.connect(self.path)
            s.sendall(b'i3-ipc' + struct.pack('=II', len(payload), kind) + payload)
            header = b''
            while len(header) < 14:
                chunk = s.recv(14 - len(header))
                if not chunk:
                    raise RuntimeError('sway closed its IPC socket')
                header += chunk
            length = struct.unpack('=I', header[6:10])[0]
            body = b''
            while len(body) < length:
                chunk = s.recv(length - len(body))
                if not chunk:
                    raise RuntimeError('sway closed its IPC socket')
                body += chunk
            return json.loads(body.decode('utf-8'))
        finally:
            s.close()

    def views(self):
        at, views = self.cached
        if views is not None and time.monotonic() - at < self.FRESH_S:
            return views
        out = []
        def visit(node):
            if node.get('type') in ('con', 'floating_con') and (node.get('pid') is not None or node.get('app_id')):
                out.append(node)
            for child in node.get('nodes', []) + node.get('floating_nodes', []):
                visit(child)
        visit(self.ask(4))
        self.cached = (time.monotonic(), out)
        return out

    def info(self, view):
        rect = view['rect']
        inner = view.get('window_rect') or {'x': 0, 'y': 0, 'width': rect['width'], 'height': rect['height']}
        info = {'id': str(view['id']), 'title': view.get('name') or '', 'appName': view.get('app_id') or (view.get('window_properties') or {}).get('class') or '',
            'type': 'normal', 'bounds': [rect['x'] + inner['x'], rect['y'] + inner['y'], inner['width'], inner['height']],
            'focused': bool(view.get('focused')), 'visible': view.get('visible', True) is not False,
            'xwayland': view.get('shell') == 'xwayland'}
        if view.get('pid') is not None:
            info['pid'] = view['pid']
        return info

    def active_hint(self):
        try:
            for view in self.views():
                if view.get('focused'):
                    return view.get('pid'), view.get('name') or ''
        except Exception:
            pass
        return None, None

    def windows(self):
        shown = [self.info(v) for v in self.views()]
        return [w for w in shown if w['visible']]

    def popups(self):
        return []  # xdg popups are not in sway's tree

    def origin(self, pid, title, size, popup):
        """Where the window of process pid whose reported size is size is on the screen: its
        client box's top-left, or None when no window (or two alike) fits. A popup (a menu is
        its own surface) is placed relative to the app's focused window, as the toolkit reports."""
        try:
            mine = [w for w in self.windows() if w.get('pid') == pid]
        except Exception:
            return None
        if popup:
            fits = [w for w in mine if w['focused']] or (mine if len(mine) == 1 else [])
        else:
            fits = [w for w in mine if abs(w['bounds'][2] - size[0]) <= 2 and abs(w['bounds'][3] - size[1]) <= 2]
            if len(fits) > 1:
                fits = [w for w in fits if w['title'] == title] or fits
        if len(fits) != 1 and not (popup and fits):
            return None
        # An X11 app under XWayland reports screen boxes already: XWayland's screen is sway's layout.
        return (0, 0) if fits[0]['xwayland'] else tuple(fits[0]['bounds'][:2])

def window_hints():
    """sway's tree on a Wayland session with its IPC socket, KWin's scripts on KDE Plasma,
    nothing on another compositor (GNOME), else the X server."""
    path = os.environ.get('SWAYSOCK')
    if os.environ.get('WAYLAND_DISPLAY') and path and os.path.exists(path):
        return SwayHints(path)
    if os.environ.get('WAYLAND_DISPLAY') and os.environ.get('GAI_WINDOW_HINTS') == 'kwin':
        return KWinHints()  # bridgeKwinScript.ts
    if os.environ.get('WAYLAND_DISPLAY') and os.environ.get('GAI_UNPLACED_TREE') == '1':
        return UnplacedHints()
    return X11Windows()
`;
