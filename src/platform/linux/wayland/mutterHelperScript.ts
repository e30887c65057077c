import { PORTAL_SESSION_SCRIPT } from './portalSessionScript';

// GAI's helper on GNOME (python3 with GObject introspection, GStreamer and its PipeWire source):
// one remote-desktop session of Mutter's own D-Bus interfaces (org.gnome.Mutter.RemoteDesktop
// and ScreenCast, the ones the desktop portal and gnome-remote-desktop use underneath), or of the
// desktop portal where those are out of reach (portalSessionScript.ts), with a screen-cast stream
// of the monitor for the screen and the session's Notify* calls for input.
// The stream is damage-driven: the newest frame always stands for the screen as it is now.
//
// It speaks the Wayland helper's JSON lines (wlrHelperScript.ts): move, button, scroll, mods,
// keys, capture (into a memfd that Node reads through /proc) and release, plus layout and stamp
// (a count of the stream's frames: unchanged, the screen has not changed). Each D-Bus
// call returns once Mutter has taken the event, so "done" means the input is in.
export const MUTTER_HELPER_SCRIPT = String.raw`
import ctypes, json, os, sys, threading
try:
    import gi
    gi.require_version('Gst', '1.0')
    from gi.repository import Gio, GLib, Gst
except Exception as e:
    sys.stdout.write(json.dumps({'type': 'hello', 'error': 'python3 lacks GObject introspection or GStreamer (%s); install python3-gi, gir1.2-gstreamer-1.0 and gstreamer1.0-pipewire' % e}) + '\n')
    sys.stdout.flush()
    sys.exit(0)

RD = 'org.gnome.Mutter.RemoteDesktop'
SC = 'org.gnome.Mutter.ScreenCast'
BUTTONS = {'left': 0x110, 'right': 0x111, 'middle': 0x112}
MODS = {'shift': 'Shift_L', 'ctrl': 'Control_L', 'alt': 'Alt_L', 'super': 'Super_L'}

def said(e):
    # A D-Bus error in words: GLib's message without its 'GDBus.Error:org.freedesktop.DBus.Error.X: ' prefix.
    text = (e.message if hasattr(e, 'message') else str(e)) or type(e).__name__
    if text.startswith('GDBus.Error:') and ': ' in text:
        name, rest = text[len('GDBus.Error:'):].split(': ', 1)
        text = '%s (%s)' % (rest, name.rsplit('.', 1)[-1])
    return text

def send_line(obj):
    sys.stdout.write(json.dumps(obj) + '\n')
    sys.stdout.flush()

xkb = ctypes.CDLL('libxkbcommon.so.0')
xkb.xkb_keysym_from_name.restype = ctypes.c_uint32
xkb.xkb_keysym_from_name.argtypes = [ctypes.c_char_p, ctypes.c_int]

def keysym(name):
    # 'U00E9' (how Node names a character): Latin-1 characters are their own keysyms, which
    # Mutter finds on the keymap; the Unicode form it may not.
    if len(name) >= 5 and name[0] == 'U' and all(c in '0123456789ABCDEFabcdef' for c in name[1:]):
        point = int(name[1:], 16)
        return point if 0x20 <= point <= 0x7e or 0xa0 <= point <= 0xff else 0x1000000 + point
    value = xkb.xkb_keysym_from_name(name.encode('utf-8'), 0)
    if value == 0:
        value = xkb.xkb_keysym_from_name(name.encode('utf-8'), 1)  # XKB_KEYSYM_CASE_INSENSITIVE
    if value == 0:
        raise ValueError('no keysym is named %r' % name)
    return value

# How long a sign of life of the session stands when the screen has not changed since.
CONFIRMED_US = 1000000

class Ended(Exception):
    pass

ENDED = ('KDE Plasma' if 'KDE' in os.environ.get('XDG_CURRENT_DESKTOP', '').upper() else 'GNOME') + ' ended GAI\'s remote-desktop session (its screen-sharing indicator was stopped, or the compositor restarted); the next request starts a new one'

class SessionLife:
    """Whether a remote-desktop session still runs: the person can end it from the desktop's
    screen-sharing indicator, and its stream then keeps its last frame, which must never be
    served as the screen. The session's Closed signal says so (self.closed); a round trip
    (self.ping), only while the screen is still, guards against a signal missed: frames flow only
    while the session runs, and a call to the compositor waits for a frame it paints."""
    closed = False
    confirmed = (None, 0)  # (the stream's frame count, when) at the last sign of life

    def alive(self, frames=None):
        context = GLib.MainContext.default()
        while context.pending():
            context.iteration(False)  # the signals received so far
        if self.closed:
            return False
        now = GLib.get_monotonic_time()
        count = frames.count if frames is not None else None
        if count is not None and count != self.confirmed[0]:
            self.confirmed = (count, now)  # a new frame: the stream still runs
            return True
        if count is not None and now - self.confirmed[1] < CONFIRMED_US:
            return True
        try:
            self.ping()
            self.confirmed = (count, now)
            return True
        except Exception:
            self.closed = True
            return False

class Mutter(SessionLife):
    def __init__(self):
        try:
            self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        except Exception as e:
            raise RuntimeError('no session bus to reach Mutter on (%s)' % said(e))
        owners = self.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'ListNames', None, '(as)')[0]
        if RD not in owners or SC not in owners:
            raise RuntimeError('%s is not on the session bus (GNOME Shell or Mutter started without remote desktop)' % RD)
        self.session = self.call(RD, '/org/gnome/Mutter/RemoteDesktop', RD, 'CreateSession', None, '(o)')[0]
        sid = self.call(RD, self.session, 'org.freedesktop.DBus.Properties', 'Get', GLib.Variant('(ss)', (RD + '.Session', 'SessionId')), '(v)')[0]
        cast = self.call(SC, '/org/gnome/Mutter/ScreenCast', SC, 'CreateSession', GLib.Variant('(a{sv})', ({'remote-desktop-session-id': GLib.Variant('s', sid)},)), '(o)')[0]
        connector = self.monitor()
        # cursor-mode 0: the pointer is not drawn into the frames, as on X11 captures.
        self.stream = self.call(SC, cast, SC + '.Session', 'RecordMonitor', GLib.Variant('(sa{sv})', (connector, {'cursor-mode': GLib.Variant('u', 0)})), '(o)')[0]
        self.node = None
        loop = GLib.MainLoop()
        def added(conn, sender, path, iface, signal, params, *rest):
            self.node = params.unpack()[0]
            loop.quit()
        self.bus.signal_subscribe(None, SC + '.Stream', 'PipeWireStreamAdded', self.stream, None, 0, added)
        self.call(RD, self.session, RD + '.Session', 'Start', None, None)
        GLib.timeout_add(4000, loop.quit)
        loop.run()
        if self.node is None:
            raise RuntimeError('Mutter started the remote-desktop session but no PipeWire stream came (is pipewire running in this session?)')
        self.held = []
        self.fd = None  # the stream is read from the session's own PipeWire
        # Its end is known from Mutter's Closed signals, or Mutter leaving the bus.
        def ended(*rest):
            self.closed = True
        def owner(conn, sender, path, iface, signal, params, *rest):
            if not params.unpack()[2]:
                self.closed = True
        self.bus.signal_subscribe(None, RD + '.Session', 'Closed', self.session, None, 0, ended)
        self.bus.signal_subscribe(None, SC + '.Session', 'Closed', cast, None, 0, ended)
        self.bus.signal_subscribe('org.freedesktop.DBus', 'org.freedesktop.DBus', 'NameOwnerChanged', '/org/freedesktop/DBus', RD, 0, owner)
        # The first key and the first pointer event of a new session are often lost (Mutter
        # is still adding the session's virtual devices): a tap of Shift, which types nothing,
        # and a motion by nothing go first.
        self.notify('NotifyKeyboardKeysym', '(ub)', keysym('Shift_L'), True)
        self.notify('NotifyKeyboardKeysym', '(ub)', keysym('Shift_L'), False)
        self.notify('NotifyPointerMotionRelative', '(dd)', 0.0, 0.0)

    def call(self, name, path, iface, method, args, reply):
        result = self.bus.call_sync(name, path, iface, method, args, GLib.VariantType(reply) if reply else None, 0, 5000, None)
        return result.unpack() if result is not None else None

    def monitor(self):
        state = self.call('org.gnome.Mutter.DisplayConfig', '/org/gnome/Mutter/DisplayConfig', 'org.gnome.Mutter.DisplayConfig', 'GetCurrentState', None, '(ua((ssss)a(siiddada{sv})a{sv})a(iiduba(ssss)a{sv})a{sv})')
        logical = state[2]
        # The primary logical monitor's first connector: the screen GAI reads and clicks.
        primary = [m for m in logical if m[4]] or logical
        if not primary or not primary[0][5]:
            raise RuntimeError('Mutter reports no monitor')
        if len(logical) > 1:
            sys.stderr.write('several monitors: GAI drives the primary one\n')
        self.scale = primary[0][2]
        return primary[0][5][0][0]

    def ping(self):
        self.call(RD, self.session, 'org.freedesktop.DBus.Properties', 'Get', GLib.Variant('(ss)', (RD + '.Session', 'SessionId')), '(v)')

    def motion(self, x, y, wait=True):
        self.notify('NotifyPointerMotionAbsolute', '(sdd)', self.stream, float(x), float(y), wait=wait)

    def button(self, code, pressed, wait=True):
        self.notify('NotifyPointerButton', '(ib)', code, bool(pressed), wait=wait)

    def key(self, value, pressed, wait=True):
        self.notify('NotifyKeyboardKeysym', '(ub)', value, bool(pressed), wait=wait)

    def axis(self, axis, steps):
        self.notify('NotifyPointerAxisDiscrete', '(ui)', axis, steps)

    def notify(self, method, fmt, *args, wait=True):
        if not wait:
            # Sent without waiting for Mutter's answer: the bus keeps one sender's calls in
            # order, and the next call waited for returns once this one is in too. Each answer
            # waits for Mutter between the frames it paints (10-30 ms while it redraws).
            self.bus.call(RD, self.session, RD + '.Session', method, GLib.Variant(fmt, args), None, 0, 5000, None, None, None)
            return
        try:
            self.call(RD, self.session, RD + '.Session', method, GLib.Variant(fmt, args), None)
        except Exception:
            if not self.alive():
                raise Ended(ENDED)
            raise

${PORTAL_SESSION_SCRIPT}
class Frames:
    """The stream's newest frame (BGRx), kept as it arrives."""
    def __init__(self, node, fd=None):
        Gst.init(None)
        self.lock = threading.Lock()
        self.fresh = threading.Event()
        self.sample = None
        self.count = 0
        self.waited = False
        self.pipeline = Gst.parse_launch('pipewiresrc %spath=%d always-copy=true ! videoconvert ! video/x-raw,format=BGRx ! appsink name=sink emit-signals=true max-buffers=1 drop=true sync=false' % ('fd=%d ' % fd if fd is not None else '', node))
        sink = self.pipeline.get_by_name('sink')
        sink.connect('new-sample', self.arrived)
        self.pipeline.set_state(Gst.State.PLAYING)

    def arrived(self, sink):
        sample = sink.emit('pull-sample')
        buf = sample.get_buffer() if sample is not None else None
        if buf is None or buf.get_size() == 0 or buf.has_flags(Gst.BufferFlags.CORRUPTED):
            # Not a picture: KWin sends the pointer's moves as empty buffers marked corrupted.
            return Gst.FlowReturn.OK
        with self.lock:
            self.sample = sample
            self.count += 1
        self.fresh.set()
        return Gst.FlowReturn.OK

    def newest(self):
        # A stream that has never sent a picture is waited for once; after that it is asked
        # without waiting, until one comes (a headless KWin sends none: its questions fail fast).
        if not self.fresh.wait(3.0 if self.count or not self.waited else 0.05):
            self.waited = True
            raise RuntimeError('the screen-cast stream gave no picture of the screen within 3 s (the desktop sends one when something on it changes; a compositor started headless may send none)')
        with self.lock:
            return self.sample

def capture(frames, req):
    sample = frames.newest()
    caps = sample.get_caps().get_structure(0)
    full_w, full_h = caps.get_value('width'), caps.get_value('height')
    buf = sample.get_buffer()
    ok, info = buf.map(Gst.MapFlags.READ)
    if not ok:
        raise RuntimeError('cannot read the frame')
    try:
        stride = len(info.data) // full_h
        x, y = int(req['x']), int(req['y'])
        w, h = min(int(req['width']), full_w - x), min(int(req['height']), full_h - y)
        if w <= 0 or h <= 0:
            raise ValueError('the region is off the %dx%d screen' % (full_w, full_h))
        fd = os.memfd_create('gai-screen')
        data = info.data
        if x == 0 and w == full_w:
            os.write(fd, data[y * stride:(y + h) * stride])
            out_stride = stride
        else:
            rows = [bytes(data[(y + r) * stride + x * 4:(y + r) * stride + (x + w) * 4]) for r in range(h)]
            os.write(fd, b''.join(rows))
            out_stride = w * 4
    finally:
        buf.unmap(info)
    return {'path': '/proc/%d/fd/%d' % (os.getpid(), fd), 'fd': fd, 'width': w, 'height': h, 'stride': out_stride, 'order': 'bgra', 'yInvert': False}

def keys(m, names, delay_ms, mods):
    values = [keysym(name) for name in names]
    for mod in mods:
        m.key(keysym(MODS[mod]), True, wait=False)
    try:
        for i, value in enumerate(values):
            m.key(value, True, wait=False)
            # The last release is waited for (with no modifier to let go after it): then all are in.
            m.key(value, False, wait=bool(i == len(values) - 1 and not mods))
            if delay_ms > 0:
                GLib.usleep(delay_ms * 1000)
    finally:
        for mod in reversed(mods):
            m.key(keysym(MODS[mod]), False)

def answer(m, frames, req):
    cmd = req.get('cmd')
    if cmd in ('capture', 'layout') and not m.alive(frames):
        raise Ended(ENDED)
    if cmd == 'capture':
        return capture(frames, req)
    if cmd == 'release':
        os.close(int(req['fd']))
    elif cmd == 'stamp':
        # How many frames the stream has given: the same number means the screen has not changed.
        if not m.alive(frames):
            raise Ended(ENDED)
        return {'stamp': frames.count}
    elif cmd == 'layout':
        if frames.count == 0 and getattr(m, 'size', None):
            return {'width': m.size[0], 'height': m.size[1], 'scale': m.scale}
        caps = frames.newest().get_caps().get_structure(0)
        return {'width': caps.get_value('width'), 'height': caps.get_value('height'), 'scale': m.scale}
    elif cmd == 'move':
        # 'follows': more input comes at once (a click's press): its call waits for this one.
        m.motion(req['x'], req['y'], wait=not req.get('follows'))
    elif cmd == 'button':
        m.button(BUTTONS[req['button']], req['pressed'], wait=not req.get('follows'))
    elif cmd == 'scroll':
        m.axis(int(req['axis']), int(req['steps']))
    elif cmd == 'mods':
        wanted = list(req['mods'])
        for mod in [h for h in m.held if h not in wanted]:
            m.key(keysym(MODS[mod]), False)
        for mod in [w for w in wanted if w not in m.held]:
            m.key(keysym(MODS[mod]), True)
        m.held = wanted
    elif cmd == 'keys':
        keys(m, req['keysyms'], int(req.get('delayMs', 0)), req.get('mods', []))
    else:
        raise ValueError('unknown command %r' % cmd)
    return {}

def main():
    try:
        m = open_session()
        frames = Frames(m.node, m.fd)
    except Exception as e:
        send_line({'type': 'hello', 'error': 'GNOME refused a remote-desktop session: %s' % said(e) if 'GDBus' in str(e) else said(e),
            'declined': isinstance(e, Declined)})
        return
    send_line({'type': 'hello', 'pid': os.getpid(), 'capture': 'ok'})
    for line in sys.stdin:
        try:
            req = json.loads(line)
        except Exception:
            continue
        try:
            result = answer(m, frames, req)
            result.update({'id': req.get('id'), 'ok': True})
            send_line(result)
        except Exception as e:
            if isinstance(e, Ended):
                # Said once, to this request: Node starts a new helper, with a new session, when asked again.
                send_line({'type': 'ended', 'id': req.get('id'), 'error': str(e)})
                break
            send_line({'id': req.get('id'), 'ok': False, 'error': said(e)})
    frames.pipeline.set_state(Gst.State.NULL)

main()
`;
