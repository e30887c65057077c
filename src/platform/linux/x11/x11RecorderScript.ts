// The python3 side of the X11 input recorder (x11InputRecorder.ts), run with python3-xlib.
// Inlined, like the interrupt watcher's script, so the esbuild bundles and the .vsix need no extra file.
//
// It selects XInput 2 raw key and button events on the root window (XI 2.1+ delivers them whatever
// window has the focus and whoever grabs the device), so it only watches: the events reach the
// person's apps as always.
//
// Protocol, one JSON object a line. Node → helper on stdin:
//   {"cmd":"flush","id":N}   answered with {"type":"flushed","id":N} after a round trip to the X server
//                            and after every event queued before it was written
// Helper → Node on stdout (time: the event's X server time in ms):
//   {"type":"ready","hotkey":bool,"warnings":[...]}     recording from now on
//   {"type":"button","down":true,"button":"left"|"middle"|"right","at":[x,y],"modifiers":[...],"window":W,"time":T}
//   {"type":"button","down":false,"button":...,"at":[x,y],"time":T}
//   {"type":"scroll","direction":"up"|"down"|"left"|"right","at":[x,y],"modifiers":[...],"window":W,"time":T}
//   {"type":"key","down":true,"key":"z","text":"Z","modifiers":["shift"],"modifier":false,"window":W,"time":T}
//   {"type":"key","down":false,"key":"shift","modifier":true,"time":T}  (releases of modifier keys only)
//   {"type":"stop","time":T}   the stop hotkey went down; nothing is reported after it
//   {"type":"warning","message":...}, {"type":"error","message":...} (then it exits)
// W is {"id":"<decimal>","title":...,"app":WM_CLASS class,"pid":N} or null. Key names and typed
// characters: x11RecorderKeysScript.ts; modifier presses are all reported, and x11RecorderLines.ts
// drops those that served a chord. Not followed: a second XKB layout group (text comes from the first).
// It exits when its stdin closes: it never outlives the Node process.
import { X11_RECORDER_KEYS_SCRIPT } from './x11RecorderKeysScript';

export const X11_RECORDER_SCRIPT = String.raw`
import ctypes, ctypes.util, json, os, select, struct, sys
try:
    from Xlib import X, XK, Xatom, display, error
    from Xlib.ext import xinput
    from Xlib.ext.ge import GenericEventCode
except Exception as e:
    sys.stdout.write(json.dumps({'type': 'error', 'message': 'python3 cannot import Xlib (install the Debian package python3-xlib): %s' % e}) + '\n')
    sys.stdout.flush()
    sys.exit(3)

def send(obj):
    sys.stdout.write(json.dumps(obj) + '\n')
    sys.stdout.flush()

MOD_ORDER = ['ctrl', 'alt', 'shift', 'super']
BUTTONS = {1: 'left', 2: 'middle', 3: 'right'}
SCROLLS = {4: 'up', 5: 'down', 6: 'left', 7: 'right'}
${X11_RECORDER_KEYS_SCRIPT}
def raw_fields(ev):
    # python-xlib leaves raw XI2 events unparsed: deviceid (2 bytes), time (4), detail (4), in the
    # connection's (native) byte order.
    data = bytes(ev.data)
    if len(data) < 10:
        return None
    _dev, time, detail = struct.unpack_from('=HII', data, 0)
    return time, detail

def main():
    config = json.loads(sys.argv[1])
    try:
        d = display.Display()
    except Exception as e:
        send({'type': 'error', 'message': 'cannot open the X display %s (%s)' % (os.environ.get('DISPLAY', '(DISPLAY unset)'), e)})
        return 3
    d.set_error_handler(lambda *args: None)  # a window gone before a request about it is not news
    root = d.screen().root
    try:
        if not d.has_extension('XInputExtension'):
            raise RuntimeError('the X server has no XInputExtension')
        version = xinput.XIQueryVersion(display=d.display, opcode=d.display.get_extension_major(xinput.extname),
                                        major_version=2, minor_version=2)
        if (version.major_version, version.minor_version) < (2, 1):
            raise RuntimeError('its XInput is %d.%d, older than 2.1' % (version.major_version, version.minor_version))
    except Exception as e:
        send({'type': 'error', 'message': 'cannot watch input on the X display %s: %s (XInput 2.1 or later is needed)' % (os.environ.get('DISPLAY', ''), e)})
        return 3
    xi_opcode = d.display.get_extension_major(xinput.extname)
    atoms = dict((n, d.intern_atom(n)) for n in ('WM_STATE', '_NET_WM_NAME', 'UTF8_STRING', '_NET_WM_PID'))
    warnings = []
    kb = {'syms': {}, 'mods': {}, 'caps_code': set(), 'num_code': set(), 'buttons': []}

    def load_keys(first, count):
        for offset, syms in enumerate(d.get_keyboard_mapping(first, count)):
            kb['syms'][first + offset] = list(syms)

    def load_modifiers():
        # Which held keycodes count as which modifier, from the modifier mapping and the keysyms.
        mods, caps, num = {}, set(), set()
        for row, codes in enumerate(d.get_modifier_mapping()):
            for code in codes:
                if not code:
                    continue
                sym = (kb['syms'].get(code) or [0])[0]
                name = keysym_name(sym)
                if name == 'Num_Lock':
                    num.add(code)
                elif row == 1:
                    caps.add(code)
                elif sym in LEVEL3:
                    mods[code] = 'level3'
                else:
                    mods[code] = NAMED.get(name) or ['shift', '', 'ctrl', 'alt', '', '', 'super', 'level3'][row]
        kb['mods'], kb['caps_code'], kb['num_code'] = mods, caps, num

    min_code, max_code = d.display.info.min_keycode, d.display.info.max_keycode
    load_keys(min_code, max_code - min_code + 1)
    load_modifiers()
    kb['buttons'] = list(d.get_pointer_mapping())
    numlock_mask = 0
    for index, codes in enumerate(d.get_modifier_mapping()):
        if set(codes) & kb['num_code']:
            numlock_mask = 1 << index
    state = {'held': set(), 'caps': False, 'num': False, 'stopped': False, 'hotkey_code': 0}
    keymap = d.query_keymap()
    for byte_index, byte in enumerate(keymap):
        for bit in range(8):
            if byte & (1 << bit):
                state['held'].add(byte_index * 8 + bit)
    mask = root.query_pointer().mask
    state['caps'], state['num'] = bool(mask & X.LockMask), bool(numlock_mask and mask & numlock_mask)

    combo = config.get('hotkey')
    hotkey_mods = set()
    grabbed = False
    if combo:
        sym = XK.string_to_keysym(combo['keysym'])
        code = d.keysym_to_keycode(sym) if sym else 0
        hotkey_mods = set('ctrl' if m == 'command' else m for m in combo['modifiers'])
        if not code:
            warnings.append('the stop hotkey key "%s" has no key code on this keyboard' % combo['keysym'])
        else:
            state['hotkey_code'] = code
            core = {'ctrl': X.ControlMask, 'shift': X.ShiftMask, 'alt': X.Mod1Mask, 'super': X.Mod4Mask}
            for index, codes in enumerate(d.get_modifier_mapping()):
                for c in codes:
                    if kb['mods'].get(c) in ('alt', 'super') and c:
                        core[kb['mods'][c]] = 1 << index
            mods = 0
            for m in hotkey_mods:
                mods |= core.get(m, 0)
            # The grab keeps the hotkey from the focused app; it must match whatever lock keys are on.
            catcher = error.CatchError(error.BadAccess)
            for extra in sorted({0, X.LockMask, numlock_mask, X.LockMask | numlock_mask}):
                root.grab_key(code, mods | extra, True, X.GrabModeAsync, X.GrabModeAsync, onerror=catcher)
            d.sync()
            if catcher.get_error():
                warnings.append('another program holds the stop hotkey %s: it still ends the recording, but that program gets it too' % combo['label'])
            else:
                grabbed = True

    root.xinput_select_events([(xinput.AllMasterDevices, xinput.RawKeyPressMask | xinput.RawKeyReleaseMask
                                | xinput.RawButtonPressMask | xinput.RawButtonReleaseMask)])
    d.sync()

    cache = {'client': {}, 'static': {}}

    def window_of(wid):
        return d.create_resource_object('window', wid)

    def has_wm_state(w):
        return w.get_property(atoms['WM_STATE'], X.AnyPropertyType, 0, 0) is not None

    def client_below(w, depth):
        # Breadth-first like XmuClientWindow: the window manager's frame holds the client.
        level = [w]
        for _ in range(depth):
            below = []
            for parent in level:
                for child in parent.query_tree().children:
                    if has_wm_state(child):
                        return child
                    below.append(child)
            level = below
        return None

    def client_of(wid, upward):
        if not wid or wid == root.id:
            return None
        if wid in cache['client']:
            return cache['client'][wid]
        w = window_of(wid)
        found = None
        for _ in range(32):
            if has_wm_state(w):
                found = w
                break
            if not upward:
                break
            parent = w.query_tree().parent
            if not parent or parent.id == root.id:
                break
            w = parent
        if found is None:
            found = client_below(w, 4)
        if found is not None:  # a window not managed yet may get its WM_STATE later
            if len(cache['client']) > 256:
                cache['client'].clear()
            cache['client'][wid] = found
        return found

    def text_property(w, atom):
        prop = w.get_property(atom, X.AnyPropertyType, 0, 4096)
        if prop is None or not prop.value:
            return None
        value = prop.value if isinstance(prop.value, bytes) else bytes(prop.value)
        return value.decode('utf-8' if prop.property_type == atoms['UTF8_STRING'] else 'latin-1', 'replace')

    def describe(w):
        if w is None:
            return None
        try:
            title = text_property(w, atoms['_NET_WM_NAME'])
            if title is None:
                title = text_property(w, Xatom.WM_NAME) or ''
            if w.id not in cache['static']:
                wm_class = w.get_wm_class()
                pid = w.get_property(atoms['_NET_WM_PID'], Xatom.CARDINAL, 0, 1)
                cache['static'][w.id] = (wm_class[1] if wm_class else None, int(pid.value[0]) if pid and len(pid.value) else None)
            app, pid = cache['static'][w.id]
        except error.XError:
            return None
        info = {'id': str(w.id), 'title': title}
        if app:
            info['app'] = app
        if pid:
            info['pid'] = pid
        return info

    def focused_window():
        try:
            focus = d.get_input_focus().focus
            wid = focus if isinstance(focus, int) else focus.id
            return describe(client_of(wid, True))
        except error.XError:
            return None

    def held_modifiers(except_code=0):
        names = set(kb['mods'].get(c) for c in state['held'] if c != except_code)
        return [m for m in MOD_ORDER if m in names]

    def level3_held():
        return any(kb['mods'].get(c) == 'level3' for c in state['held'])

    def pointer():
        p = root.query_pointer()
        state['caps'] = bool(p.mask & X.LockMask)
        state['num'] = bool(numlock_mask and p.mask & numlock_mask)
        return p

    def on_raw(ev):
        fields = raw_fields(ev)
        if fields is None:
            return
        time, detail = fields
        if ev.evtype == xinput.RawKeyPress:
            code = detail
            mods = held_modifiers(code)
            modifier = code in kb['mods']
            if code == state['hotkey_code'] and set(mods) == hotkey_mods:
                state['stopped'] = True
                send({'type': 'stop', 'time': time})
                return
            if code in kb['caps_code']:
                state['caps'] = not state['caps']
            if code in kb['num_code']:
                state['num'] = not state['num']
            state['held'].add(code)
            name, text = resolve_key(kb['syms'].get(code) or [], mods, state['caps'], state['num'], level3_held())
            line = {'type': 'key', 'down': True, 'key': name, 'modifiers': mods, 'modifier': modifier,
                    'window': focused_window(), 'time': time}
            if text is not None and not modifier:
                line['text'] = text
            send(line)
        elif ev.evtype == xinput.RawKeyRelease:
            code = detail
            was_held = code in state['held']
            state['held'].discard(code)
            if was_held and code in kb['mods']:  # xdotool may release a key twice
                send({'type': 'key', 'down': False, 'key': key_name((kb['syms'].get(code) or [0])[0]), 'modifier': True, 'time': time})
        else:
            # Raw events carry the physical button: the pointer mapping (left-handed) applies on top.
            button = kb['buttons'][detail - 1] if 0 < detail <= len(kb['buttons']) else detail
            down = ev.evtype == xinput.RawButtonPress
            if button not in BUTTONS and not (button in SCROLLS and down):
                return
            p = pointer()  # right after the event: where the button went down (or up)
            at = [p.root_x, p.root_y]
            if button in BUTTONS and not down:
                send({'type': 'button', 'down': False, 'button': BUTTONS[button], 'at': at, 'time': time})
                return
            child = p.child if isinstance(p.child, int) else getattr(p.child, 'id', 0)
            try:
                window = describe(client_of(child, False))
            except error.XError:
                window = None
            line = {'down': True, 'at': at, 'modifiers': held_modifiers(), 'window': window, 'time': time}
            if button in BUTTONS:
                line.update(type='button', button=BUTTONS[button])
            else:
                line.update(type='scroll', direction=SCROLLS[button])
            send(line)

    def drain():
        while d.pending_events():
            ev = d.next_event()
            if ev.type == X.MappingNotify:
                # xdotool binds a spare keycode to type a character the layout lacks: read it now.
                if ev.request == X.MappingKeyboard:
                    load_keys(ev.first_keycode, ev.count)
                    load_modifiers()
                elif ev.request == X.MappingModifier:
                    load_modifiers()
                elif ev.request == X.MappingPointer:
                    kb['buttons'] = list(d.get_pointer_mapping())
                continue
            if ev.type == GenericEventCode and ev.extension == xi_opcode and not state['stopped']:
                try:
                    on_raw(ev)
                except error.XError:
                    pass  # a window gone while it was looked up; the next event is on its own
            elif ev.type == X.KeyPress and not state['stopped']:
                # The grabbed hotkey, should its raw event not have been seen (it normally is).
                state['stopped'] = True
                send({'type': 'stop', 'time': ev.time})

    send({'type': 'ready', 'hotkey': grabbed, 'warnings': warnings})
    stdin = sys.stdin.fileno()
    xfd = d.fileno()
    buffered = b''
    while True:
        drain()
        readable, _, _ = select.select([stdin, xfd], [], [], 1.0)
        if stdin not in readable:
            continue
        chunk = os.read(stdin, 65536)
        if not chunk:
            return 0
        buffered += chunk
        while b'\n' in buffered:
            line, buffered = buffered.split(b'\n', 1)
            if not line.strip():
                continue
            command = json.loads(line)
            if command.get('cmd') == 'flush':
                d.sync()  # a round trip: every event the server sent before now is queued
                drain()
                send({'type': 'flushed', 'id': command.get('id')})

try:
    sys.exit(main())
except (BrokenPipeError, KeyboardInterrupt):
    sys.exit(0)
except error.ConnectionClosedError as e:
    send({'type': 'error', 'message': 'the X display closed the connection (%s)' % e})
    sys.exit(4)
except Exception as e:
    send({'type': 'error', 'message': 'the input recorder failed: %s: %s' % (type(e).__name__, e)})
    sys.exit(5)
`;
