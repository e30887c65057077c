// The keyboard half of the X11 input recorder's python3 script (x11RecorderScript.ts): a keycode's
// keysyms and the modifier and lock state → GAI's portable key name (desktop/input/keys.ts) and the
// character typed. Pure functions over python-xlib's XK tables (and libxkbcommon when present),
// so test/desktopTools/x11RecorderKeys.test.ts runs them without a display.
// Needs, before it: `import ctypes, ctypes.util` and `from Xlib import XK`.
export const X11_RECORDER_KEYS_SCRIPT = String.raw`
XK.load_keysym_group('xkb')  # ISO_Level3_Shift, ISO_Left_Tab
NAMED = {
    'Return': 'enter', 'KP_Enter': 'enter', 'Tab': 'tab', 'ISO_Left_Tab': 'tab', 'Escape': 'escape', 'space': 'space',
    'BackSpace': 'backspace', 'Delete': 'delete', 'KP_Delete': 'delete', 'Insert': 'insert', 'KP_Insert': 'insert',
    'Home': 'home', 'KP_Home': 'home', 'End': 'end', 'KP_End': 'end', 'Prior': 'pageup', 'KP_Prior': 'pageup',
    'Next': 'pagedown', 'KP_Next': 'pagedown', 'Up': 'up', 'KP_Up': 'up', 'Down': 'down', 'KP_Down': 'down',
    'Left': 'left', 'KP_Left': 'left', 'Right': 'right', 'KP_Right': 'right', 'Caps_Lock': 'capslock', 'Print': 'printscreen',
    'Menu': 'menu', 'Shift_L': 'shift', 'Shift_R': 'shift', 'Control_L': 'ctrl', 'Control_R': 'ctrl', 'Alt_L': 'alt',
    'Alt_R': 'alt', 'Meta_L': 'alt', 'Meta_R': 'alt', 'Super_L': 'super', 'Super_R': 'super', 'Hyper_L': 'super',
    'Hyper_R': 'super', 'minus': 'minus', 'equal': 'equal', 'comma': 'comma', 'period': 'period', 'slash': 'slash',
    'backslash': 'backslash', 'semicolon': 'semicolon', 'apostrophe': 'quote', 'grave': 'grave',
    'bracketleft': 'leftbracket', 'bracketright': 'rightbracket',
}
KEY_NAMES = dict((XK.string_to_keysym(name), key) for name, key in NAMED.items())
for n in range(1, 25):
    KEY_NAMES[XK.string_to_keysym('F%d' % n)] = 'f%d' % n
for n in range(10):
    KEY_NAMES[XK.string_to_keysym('KP_%d' % n)] = str(n)
LEVEL3 = set(XK.string_to_keysym(n) for n in ('ISO_Level3_Shift', 'Mode_switch'))

# libxkbcommon knows every legacy keysym's character (Latin-2, Cyrillic, keypad…); without it
# Latin-1 keysyms are their code point and 0x01000000+cp are Unicode.
try:
    _xkb = ctypes.CDLL(ctypes.util.find_library('xkbcommon') or 'libxkbcommon.so.0')
    _xkb.xkb_keysym_to_utf32.restype = ctypes.c_uint32
    _xkb.xkb_keysym_to_utf32.argtypes = [ctypes.c_uint32]
    _xkb.xkb_keysym_get_name.argtypes = [ctypes.c_uint32, ctypes.c_char_p, ctypes.c_size_t]
except Exception:
    _xkb = None

_NAMES = {}
for _attr in dir(XK):
    if _attr.startswith('XK_'):
        _NAMES.setdefault(getattr(XK, _attr), _attr[3:])

def keysym_name(sym):
    if _xkb is not None:
        buffer = ctypes.create_string_buffer(64)
        if _xkb.xkb_keysym_get_name(sym, buffer, 64) > 0:
            return buffer.value.decode('ascii', 'replace')
    return _NAMES.get(sym) or '0x%x' % sym

def is_keypad(sym):
    return 0xff80 <= sym <= 0xffbd

def keysym_char(sym):
    if not sym:
        return None
    if _xkb is not None:
        cp = _xkb.xkb_keysym_to_utf32(sym)
    elif 0x20 <= sym <= 0x7e or 0xa0 <= sym <= 0xff:
        cp = sym
    elif 0x01000100 <= sym <= 0x0110ffff:
        cp = sym - 0x01000000
    elif 0xffb0 <= sym <= 0xffb9:
        cp = sym - 0xffb0 + 0x30  # KP_0…KP_9
    else:
        cp = 0
    return chr(cp) if cp else None

def key_name(sym):
    if sym in KEY_NAMES:
        return KEY_NAMES[sym]
    char = keysym_char(sym) if not is_keypad(sym) else None
    if char and char.isprintable() and not char.isspace():
        return char.lower() if len(char.lower()) == 1 else char
    return keysym_name(sym)

def resolve_key(syms, mods, caps, num, level3):
    # The key's portable name and the character it types, from its keysyms and the state.
    name_sym = syms[0] if syms else 0
    first, second = (syms + [0, 0])[:2]
    if level3 and len(syms) > 4 and syms[4]:
        first, second = (syms[4:6] + [0])[:2]
    shift = 'shift' in mods
    if is_keypad(second) and num:
        name_sym = first if shift else second  # Num Lock on: Shift gives the navigation key back
        char = keysym_char(name_sym)
    else:
        low, high = keysym_char(first), keysym_char(second)
        if low is not None and low.lower() != low.upper() and (high is None or high == low.upper()):
            # Caps Lock inverts the case of letters only, as XKB's alphabetic key type does;
            # a key bound to one letter (xdotool's spare keycode) has its upper case implied.
            upper = shift != caps
            char = (high or (low.upper() if len(low.upper()) == 1 else low)) if upper else low
        else:
            char = high if shift and high else low
    text = char if char and char.isprintable() and not (set(mods) & {'ctrl', 'alt', 'super'}) else None
    return key_name(name_sym), text
`;
