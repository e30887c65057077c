// The input side of GAI's Wayland helper (wlrHelperScript.ts): one virtual pointer
// (wlr-virtual-pointer-unstable-v1) and one virtual keyboard (virtual-keyboard-unstable-v1) held
// on the seat while the helper lives.
export const WLR_INPUT_SCRIPT = String.raw`
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
`;
