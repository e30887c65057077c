// The wlroots input helper (python3, standard library only): a Wayland client that holds one
// virtual pointer (wlr-virtual-pointer-unstable-v1) and one virtual keyboard
// (virtual-keyboard-unstable-v1) on the seat. Debian 12 packages no Python Wayland binding, and
// the wire protocol is small: a header (object id, size << 16 | opcode) and 32-bit arguments.
// After each action it waits for wl_display.sync's callback, so the compositor has taken the
// input before Node hears "done" (as XSync does for XTest).
//
// Node → helper, a JSON line each: {"id":N,"cmd":"move"|"button"|"scroll"|"keys"|"mods",...}.
// Helper → Node: {"type":"hello",...} once connected, then {"id":N,"ok":true} or
// {"id":N,"ok":false,"error":"..."}. It exits when its stdin closes.
export const WLR_INPUT_SCRIPT = String.raw`
import array, json, os, socket, struct, sys, threading, time

def send_line(obj):
    sys.stdout.write(json.dumps(obj) + '\n')
    sys.stdout.flush()

class Wayland:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.next_id = 3  # 1: wl_display, 2: wl_registry
        self.globals = {}
        self.done = set()
        self.callbacks = set()
        self.error = None
        self.buffer = b''
        self.lock = threading.Lock()

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def request(self, obj, opcode, fmt='', *args, fds=None):
        body = b''
        for kind, value in zip(fmt, args):
            if kind in 'uo':
                body += struct.pack('=I', value)
            elif kind == 'i':
                body += struct.pack('=i', value)
            elif kind == 'f':
                body += struct.pack('=i', int(round(value * 256)))
            elif kind == 's':
                data = value.encode() + b'\0'
                body += struct.pack('=I', len(data)) + data + b'\0' * ((4 - len(data) % 4) % 4)
        message = struct.pack('=II', obj, ((8 + len(body)) << 16) | opcode) + body
        with self.lock:
            if fds:
                self.sock.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', fds))])
            else:
                self.sock.sendall(message)

    def read_events(self):
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError('the compositor closed the connection')
        self.buffer += data
        while len(self.buffer) >= 8:
            obj, word = struct.unpack_from('=II', self.buffer)
            size, opcode = word >> 16, word & 0xffff
            if len(self.buffer) < size:
                break
            body, self.buffer = self.buffer[8:size], self.buffer[size:]
            self.event(obj, opcode, body)

    def event(self, obj, opcode, body):
        if obj == 1 and opcode == 0:  # wl_display.error(object, code, message)
            _, code, length = struct.unpack_from('=III', body)
            self.error = 'Wayland protocol error %d: %s' % (code, body[12:12 + length - 1].decode(errors='replace'))
        elif obj == 2 and opcode == 0:  # wl_registry.global(name, interface, version)
            name, length = struct.unpack_from('=II', body)
            interface = body[8:8 + length - 1].decode()
            version = struct.unpack_from('=I', body, 8 + ((length + 3) // 4) * 4)[0]
            self.globals[interface] = (name, version)
        elif obj in self.callbacks:
            self.done.add(obj)



    def roundtrip(self):
        callback = self.new_id()
        self.callbacks.add(callback)
        self.request(1, 0, 'u', callback)  # wl_display.sync
        while callback not in self.done:
            if self.error:
                raise RuntimeError(self.error)
            self.read_events()
        self.done.discard(callback)
        if self.error:
            raise RuntimeError(self.error)

    def bind(self, interface, version):
        if interface not in self.globals:
            return None
        name, offered = self.globals[interface]
        obj = self.new_id()
        self.request(2, 0, 'usuu', name, interface, min(version, offered), obj)
        return obj

BUTTONS = {'left': 0x110, 'right': 0x111, 'middle': 0x112}
# The virtual keyboard sends the modifier state itself (real modifier masks), as wtype does.
MASKS = {'shift': 1, 'ctrl': 4, 'alt': 8, 'super': 64}

BASE_KEYS = ['Return', 'Tab', 'Escape', 'BackSpace', 'Delete', 'Insert', 'Home', 'End', 'Prior', 'Next', 'Up', 'Down',
    'Left', 'Right', 'Caps_Lock', 'Print', 'Menu', 'space', 'minus', 'equal', 'comma', 'period', 'slash', 'backslash',
    'semicolon', 'apostrophe', 'grave', 'bracketleft', 'bracketright'] + ['F%d' % n for n in range(1, 25)] + \
    [chr(c) for c in range(ord('a'), ord('z') + 1)] + [str(d) for d in range(10)]

LAST_MS = [0]

def now_ms():
    # Strictly increasing: two events of one millisecond look like one to some toolkits (a
    # doubled letter lost).
    LAST_MS[0] = max(LAST_MS[0] + 1, int(time.monotonic() * 1000))
    return LAST_MS[0] & 0xffffffff

class Input:
    def __init__(self, wl):
        self.wl = wl
        wl.request(1, 1, 'u', 2)  # wl_display.get_registry
        wl.roundtrip()
        seat = wl.bind('wl_seat', 1)
        pointers = wl.bind('zwlr_virtual_pointer_manager_v1', 1)
        keyboards = wl.bind('zwp_virtual_keyboard_manager_v1', 1)
        missing = [n for n, o in (('zwlr_virtual_pointer_manager_v1', pointers), ('zwp_virtual_keyboard_manager_v1', keyboards), ('wl_seat', seat)) if o is None]
        if missing:
            raise RuntimeError('the compositor does not offer ' + ', '.join(missing))
        self.pointer = wl.new_id()
        wl.request(pointers, 0, 'oo', seat, self.pointer)
        self.keyboard = wl.new_id()
        wl.request(keyboards, 0, 'oo', seat, self.keyboard)
        # Every ASCII character and the named keys from the start: text and keys need no new
        # keymap, which an app may apply a few events late (characters lost or swapped).
        self.keysyms = ['U%04X' % c for c in range(0x20, 0x7f)] + BASE_KEYS
        self.upload_keymap()
        wl.roundtrip()

    def upload_keymap(self):
        # One keycode per keysym asked for so far, as wtype does: any character can be typed.
        lines = ['xkb_keymap {', 'xkb_keycodes "(unnamed)" {', 'minimum = 8;', 'maximum = %d;' % (9 + len(self.keysyms) + 1)]
        lines += ['<K%d> = %d;' % (i, i + 9) for i in range(len(self.keysyms))]
        lines += ['};', 'xkb_types "(unnamed)" { include "complete" };', 'xkb_compatibility "(unnamed)" { include "complete" };', 'xkb_symbols "(unnamed)" {']
        lines += ['key <K%d> {[%s]};' % (i, sym) for i, sym in enumerate(self.keysyms)]
        lines += ['};', '};']
        data = ('\n'.join(lines) + '\n').encode() + b'\0'
        fd = os.memfd_create('gai-keymap')
        os.write(fd, data)
        self.wl.request(self.keyboard, 0, 'uu', 1, len(data), fds=[fd])  # keymap(format xkb_v1, fd, size)
        os.close(fd)

    def prepare(self, syms):
        # A new keymap goes out once, before the keys: keys pressed between two keymaps were
        # read by the app with the wrong one (reordered or lost characters).
        new = [sym for sym in dict.fromkeys(syms) if sym not in self.keysyms]
        if new:
            self.keysyms.extend(new)
            self.upload_keymap()
            self.wl.roundtrip()

    def keycode(self, sym):
        return self.keysyms.index(sym) + 1  # evdev code: the keymap code (index + 9) minus 8

    def move(self, x, y, width, height):
        self.wl.request(self.pointer, 1, 'uuuuu', now_ms(), max(0, min(x, width - 1)), max(0, min(y, height - 1)), width, height)
        self.wl.request(self.pointer, 4)

    def button(self, name, pressed):
        self.wl.request(self.pointer, 2, 'uuu', now_ms(), BUTTONS[name], 1 if pressed else 0)
        self.wl.request(self.pointer, 4)

    def scroll(self, axis, steps):
        self.wl.request(self.pointer, 5, 'u', 0)  # axis_source: wheel
        self.wl.request(self.pointer, 7, 'uufi', now_ms(), axis, 15.0 * steps, steps)
        self.wl.request(self.pointer, 4)

    def mods(self, names):
        mask = 0
        for name in names:
            mask |= MASKS[name]
        self.wl.request(self.keyboard, 2, 'uuuu', mask, 0, 0, 0)

    def keys(self, syms, delay_ms, mods):
        self.prepare(syms)
        codes = [self.keycode(sym) for sym in syms]
        self.mods(mods)
        for code in codes:
            self.wl.request(self.keyboard, 1, 'uuu', now_ms(), code, 1)
            self.wl.request(self.keyboard, 1, 'uuu', now_ms(), code, 0)
            if delay_ms:
                self.wl.roundtrip()
                time.sleep(delay_ms / 1000.0)
        self.mods([])

def main():
    runtime = os.environ.get('XDG_RUNTIME_DIR', '')
    name = os.environ.get('WAYLAND_DISPLAY', 'wayland-0')
    path = name if name.startswith('/') else os.path.join(runtime, name)
    try:
        wl = Wayland(path)
        inp = Input(wl)
    except Exception as e:
        send_line({'type': 'hello', 'error': '%s (%s)' % (e, path)})
        return
    send_line({'type': 'hello', 'pid': os.getpid()})
    for line in sys.stdin:
        try:
            req = json.loads(line)
        except Exception:
            continue
        try:
            cmd = req.get('cmd')
            if cmd == 'move':
                inp.move(int(req['x']), int(req['y']), int(req['width']), int(req['height']))
            elif cmd == 'button':
                inp.button(req['button'], bool(req['pressed']))
            elif cmd == 'scroll':
                inp.scroll(int(req['axis']), int(req['steps']))
            elif cmd == 'mods':
                inp.mods(req['mods'])
            elif cmd == 'keys':
                inp.keys(req['keysyms'], int(req.get('delayMs', 0)), req.get('mods', []))
            else:
                raise ValueError('unknown command %r' % cmd)
            wl.roundtrip()
            send_line({'id': req.get('id'), 'ok': True})
        except Exception as e:
            send_line({'id': req.get('id'), 'ok': False, 'error': str(e) or type(e).__name__})

main()
`;
