// The GNOME helper's second way to a remote-desktop session (mutterHelperScript.ts): through the
// desktop portal (org.freedesktop.portal.RemoteDesktop and ScreenCast, xdg-desktop-portal), the
// way a sandboxed program (a Flatpak VS Code) must take, where Mutter's own interfaces are out of
// reach, and the only way on KDE Plasma (xdg-desktop-portal-kde). The desktop asks the person once per session (a dialog: which monitor, "Allow remote
// interaction"); where the portal keeps a restore token (RemoteDesktop version 2 and later), the
// token is kept in a file and later sessions start without asking. Its methods are the Mutter
// session's: motion, button, key, axis, ping, with SessionLife's alive(); `fd` is the PipeWire
// remote the portal opens for it.
export const PORTAL_SESSION_SCRIPT = String.raw`
PORTAL = 'org.freedesktop.portal.Desktop'
PORTAL_PATH = '/org/freedesktop/portal/desktop'
PORTAL_RD = 'org.freedesktop.portal.RemoteDesktop'
PORTAL_SC = 'org.freedesktop.portal.ScreenCast'
# How long the person has to answer the desktop's dialog.
APPROVAL_S = 170
DEVICES = 1 | 2  # keyboard, pointer
# What a pointer move through the portal is given to be made before the next press: sent at once, the
# presses of a quick series of clicks landed where the pointer had been (GNOME 43); 15 ms was
# enough here, 60 ms leaves room on a busy machine.
MOTION_SETTLE_US = 60000

class Declined(RuntimeError):
    pass

class Portal(SessionLife):
    def __init__(self, token_file):
        try:
            self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        except Exception as e:
            raise RuntimeError('no session bus to reach the desktop portal on (%s)' % said(e))
        try:
            version = self.bus.call_sync(PORTAL, PORTAL_PATH, 'org.freedesktop.DBus.Properties', 'Get', GLib.Variant('(ss)', (PORTAL_RD, 'version')), None, 0, 10000, None).unpack()[0]
        except Exception as e:
            raise RuntimeError('the desktop portal offers no remote desktop (%s); install xdg-desktop-portal and your desktop\'s backend (xdg-desktop-portal-gnome, -kde)' % said(e))
        self.sender = self.bus.get_unique_name()[1:].replace('.', '_')
        self.held = []
        self.moved = False  # a pointer move not yet followed by a press
        self.scale = 1.0
        self.session = self.request(PORTAL_RD, 'CreateSession', '(a{sv})', ({'session_handle_token': GLib.Variant('s', 'gai%d' % os.getpid())},))['session_handle']
        devices = {'types': GLib.Variant('u', DEVICES)}
        token = read_token(token_file) if version >= 2 else None
        if version >= 2:
            devices['persist_mode'] = GLib.Variant('u', 2)  # until the person revokes it
            if token:
                devices['restore_token'] = GLib.Variant('s', token)
        self.request(PORTAL_RD, 'SelectDevices', '(oa{sv})', (self.session, devices))
        # One monitor, the pointer not drawn into the frames (as on X11 captures).
        self.request(PORTAL_SC, 'SelectSources', '(oa{sv})', (self.session, {'types': GLib.Variant('u', 1), 'multiple': GLib.Variant('b', False), 'cursor_mode': GLib.Variant('u', 1)}))
        if not token:
            send_line({'type': 'waiting', 'for': 'approval', 'seconds': APPROVAL_S})
        started = self.request(PORTAL_RD, 'Start', '(osa{sv})', (self.session, '', {}), APPROVAL_S)
        if started.get('devices', 0) & DEVICES != DEVICES:
            self.close()
            raise RuntimeError('the desktop shares the screen but not the keyboard and pointer: tick "Allow remote interaction" in its dialog')
        streams = started.get('streams') or []
        if not streams:
            self.close()
            raise RuntimeError('the desktop portal started the session with no screen-cast stream')
        self.node = streams[0][0]
        # The stream's size as the portal gives it: the screen's layout before its first frame
        # (KWin sends frames only when something changes on the screen).
        size = (streams[0][1] or {}).get('size') if len(streams[0]) > 1 else None
        self.size = tuple(size) if size and len(size) == 2 else None
        if started.get('restore_token') and version >= 2:
            write_token(token_file, started['restore_token'])
        fds = self.bus.call_with_unix_fd_list_sync(PORTAL, PORTAL_PATH, PORTAL_SC, 'OpenPipeWireRemote', GLib.Variant('(oa{sv})', (self.session, {})), None, 0, 10000, None, None)
        self.fd = fds.out_fd_list.get(fds[0].unpack()[0])
        def ended(*rest):
            self.closed = True
        self.bus.signal_subscribe(PORTAL, 'org.freedesktop.portal.Session', 'Closed', self.session, None, 0, ended)

    def request(self, iface, method, fmt, args, timeout_s=30):
        """A portal call whose answer comes as its Request's Response signal: the results, or why not."""
        token = 'gai%d' % GLib.random_int()
        path = '%s/request/%s/%s' % (PORTAL_PATH, self.sender, token)
        args = args[:-1] + (dict(args[-1], handle_token=GLib.Variant('s', token)),)
        answer = {}
        loop = GLib.MainLoop()
        def response(conn, sender, obj, interface, signal, params, *rest):
            answer['code'], answer['results'] = params.unpack()
            loop.quit()
        sub = self.bus.signal_subscribe(PORTAL, 'org.freedesktop.portal.Request', 'Response', path, None, 0, response)
        try:
            self.bus.call_sync(PORTAL, PORTAL_PATH, iface, method, GLib.Variant(fmt, args), None, 0, 10000, None)
            timer = GLib.timeout_add(int(timeout_s * 1000), loop.quit)
            loop.run()
            if 'code' in answer:
                GLib.source_remove(timer)
        finally:
            self.bus.signal_unsubscribe(sub)
        if 'code' not in answer:
            raise RuntimeError('the desktop did not answer GAI\'s %s within %d s (its dialog left open?)' % (method, timeout_s))
        if answer['code'] == 1:
            raise Declined('the person declined to let GAI see and control the screen (the desktop\'s dialog); a later request asks again')
        if answer['code'] != 0:
            raise RuntimeError('the desktop portal refused %s' % method)
        return answer['results']

    def close(self):
        try:
            self.bus.call_sync(PORTAL, self.session, 'org.freedesktop.portal.Session', 'Close', None, None, 0, 5000, None)
        except Exception:
            pass

    def ping(self):
        self.bus.call_sync(PORTAL, self.session, 'org.freedesktop.DBus.Properties', 'Get', GLib.Variant('(ss)', ('org.freedesktop.portal.Session', 'version')), None, 0, 5000, None)

    def notify(self, method, fmt, args):
        # Each call is waited for, so a refusal is seen where it happens; its answer does not
        # say the desktop has made it yet (see button).
        params = GLib.Variant(fmt, (self.session, {}) + args)
        try:
            self.bus.call_sync(PORTAL, PORTAL_PATH, PORTAL_RD, method, params, None, 0, 5000, None)
        except Exception:
            if not self.alive():
                raise Ended(ENDED)
            raise

    def motion(self, x, y, wait=True):
        self.notify('NotifyPointerMotionAbsolute', '(oa{sv}udd)', (self.node, float(x), float(y)))
        self.moved = True

    def button(self, code, pressed, wait=True):
        if self.moved:
            # The portal answers before the desktop has moved the pointer (GNOME 43: a press sent
            # at once landed where the pointer was before): a press waits for the move to be made.
            GLib.usleep(MOTION_SETTLE_US)
            self.moved = False
        self.notify('NotifyPointerButton', '(oa{sv}iu)', (code, 1 if pressed else 0))

    def key(self, value, pressed, wait=True):
        self.notify('NotifyKeyboardKeysym', '(oa{sv}iu)', (value, 1 if pressed else 0))

    def axis(self, axis, steps):
        self.notify('NotifyPointerAxisDiscrete', '(oa{sv}ui)', (axis, steps))

def read_token(path):
    try:
        with open(path) as f:
            return f.read().strip() or None
    except Exception:
        return None

def write_token(path, token):
    # Written whole or not at all, readable by this user alone: it lets GAI in without asking.
    if not path:
        return
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        partial = path + '.partial'
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, 'w') as f:
            f.write(token)
        os.replace(partial, path)
    except Exception as e:
        sys.stderr.write('cannot keep the portal\'s restore token in %s: %s\n' % (path, said(e)))

def open_session():
    """Mutter's own interfaces where this program can reach them, else the desktop portal
    (GAI_GNOME_ROUTE=portal or mutter chooses; a Flatpak sandbox has only the portal)."""
    # GAI_DESKTOP_ROUTE=portal: a desktop reached only through the portal (KDE Plasma).
    route = 'portal' if os.environ.get('GAI_DESKTOP_ROUTE') == 'portal' else os.environ.get('GAI_GNOME_ROUTE', 'auto')
    token_file = os.environ.get('GAI_PORTAL_TOKEN_FILE', '')
    if route == 'portal' or (route == 'auto' and os.path.exists('/.flatpak-info')):
        return Portal(token_file)
    try:
        return Mutter()
    except Exception as e:
        if route == 'mutter' or 'is not on the session bus' not in str(e):
            raise
        try:
            return Portal(token_file)
        except Exception as portal:
            raise RuntimeError('%s; nor through the desktop portal: %s' % (said(e), said(portal)))
`;
