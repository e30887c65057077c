// The python3 side of the X11 interrupt watcher (x11InterruptWatcher.ts), run with python3-xlib.
// Inlined, like the AT-SPI script, so the esbuild bundles and the .vsix need no extra file.
//
// Protocol, one JSON object a line. Node → helper on stdin:
//   {"cmd":"begin","id":N,"points":[[x,y],...]}  GAI starts sending input (aimed at those points);
//                            the answer carries the person's input since GAI's last
//   {"cmd":"end","id":N}     GAI finished sending: what arrived until now was GAI's own input
//   {"cmd":"check","id":N}   report the person's input since the last end/reset
//   {"cmd":"reset","id":N}   forget it; the pointer where it is now counts as where GAI left it
// Helper → Node on stdout: {"type":"ready",...}, {"type":"ack","id":N,...},
//   {"type":"stop","reason":"hotkey"|"corner",...}, {"type":"warning","message":...}, {"type":"error",...}.
// Every command is answered after a round trip to the X server and after every event queued before
// it was read, so an answer covers all input the server had processed when it was asked.
// It exits when its stdin closes: it never outlives the Node process.
// Started with {"standby":true} it loads python3-xlib, says {"type":"standby"} and waits for
// {"cmd":"arm","config":{...}} before it opens the display and grabs: the next request's watcher
// is started when the last one ends, so a request does not pay for a python3 start-up.
export const X11_INTERRUPT_SCRIPT = String.raw`
import json, os, select, struct, sys, time
try:
    from Xlib import X, XK, display, error
    from Xlib.ext import xinput
    from Xlib.ext.ge import GenericEventCode
except Exception as e:
    sys.stdout.write(json.dumps({'type': 'error', 'message': 'python3 cannot import Xlib (install the Debian package python3-xlib): %s' % e}) + '\n')
    sys.stdout.flush()
    sys.exit(3)

CORNER_PX = 2
CORNER_POLL_S = 0.025

def send(obj):
    sys.stdout.write(json.dumps(obj) + '\n')
    sys.stdout.flush()

def raw_keycode(ev):
    # python-xlib leaves raw XI2 events unparsed: after deviceid (2 bytes) and time (4) comes
    # detail (4), the keycode, in the connection's (native) byte order.
    data = ev.data
    if isinstance(data, (bytes, bytearray, memoryview)) and len(data) >= 10:
        return struct.unpack_from('=I', bytes(data[:10]), 6)[0]
    return getattr(data, 'detail', None)

def mod_mask_for(d, keysym_names):
    codes = set()
    for name in keysym_names:
        code = d.keysym_to_keycode(XK.string_to_keysym(name))
        if code:
            codes.add(code)
    masks = [X.ShiftMask, X.LockMask, X.ControlMask, X.Mod1Mask, X.Mod2Mask, X.Mod3Mask, X.Mod4Mask, X.Mod5Mask]
    for index, keycodes in enumerate(d.get_modifier_mapping()):
        if codes.intersection(k for k in keycodes if k):
            return masks[index]
    return 0

def wait_for_arm():
    # Read with os.read (not sys.stdin's buffer): what follows the arm line belongs to the loop.
    buffered = b''
    while b'\n' not in buffered:
        chunk = os.read(sys.stdin.fileno(), 65536)
        if not chunk:
            return None, b''
        buffered += chunk
    line, rest = buffered.split(b'\n', 1)
    return json.loads(line).get('config') or {}, rest

def main():
    config = json.loads(sys.argv[1])
    buffered = b''
    if config.get('standby'):
        send({'type': 'standby'})
        config, buffered = wait_for_arm()
        if config is None:
            return 0
    try:
        d = display.Display()
    except Exception as e:
        send({'type': 'error', 'message': 'cannot open the X display %s: %s' % (os.environ.get('DISPLAY', '(DISPLAY unset)'), e)})
        return 3
    screen = d.screen()
    root = screen.root
    width, height = screen.width_in_pixels, screen.height_in_pixels
    warnings = []

    hotkey = False
    combo = config.get('hotkey')
    if combo:
        keysym = XK.string_to_keysym(combo['keysym'])
        keycode = d.keysym_to_keycode(keysym) if keysym else 0
        if not keycode:
            warnings.append('the stop hotkey key "%s" has no key code on this keyboard' % combo['keysym'])
        else:
            mods = 0
            for m in combo['modifiers']:
                if m in ('ctrl', 'command'):
                    mods |= X.ControlMask
                elif m == 'shift':
                    mods |= X.ShiftMask
                elif m == 'alt':
                    mods |= mod_mask_for(d, ['Alt_L', 'Alt_R', 'Meta_L']) or X.Mod1Mask
            numlock = mod_mask_for(d, ['Num_Lock'])
            # The grab must match whatever lock keys are on, so each combination is grabbed.
            extras = sorted({0, X.LockMask, numlock, X.LockMask | numlock})
            catcher = error.CatchError(error.BadAccess)
            for extra in extras:
                root.grab_key(keycode, mods | extra, True, X.GrabModeAsync, X.GrabModeAsync, onerror=catcher)
            d.sync()
            if catcher.get_error():
                warnings.append('another program already holds the stop hotkey %s; use the fail-safe corner or the Stop button' % combo['label'])
            else:
                hotkey = True

    raw = False
    want_input = config.get('input') or config.get('corner')
    if want_input:
        try:
            if not d.has_extension('XInputExtension'):
                raise RuntimeError('the X server has no XInputExtension')
            # XI 2.1+ delivers raw events to the root window even while another client grabs the device.
            version = xinput.XIQueryVersion(display=d.display, opcode=d.display.get_extension_major(xinput.extname),
                                            major_version=2, minor_version=2)
            if (version.major_version, version.minor_version) < (2, 1):
                raise RuntimeError('XInput %d.%d is older than 2.1' % (version.major_version, version.minor_version))
            root.xinput_select_events([(xinput.AllMasterDevices,
                xinput.RawKeyPressMask | xinput.RawButtonPressMask | xinput.RawMotionMask)])
            d.sync()
            raw = True
        except Exception as e:
            warnings.append('cannot watch input events (%s); only the pointer position is checked' % e)
    xi_opcode = d.display.get_extension_major(xinput.extname) if raw else -1

    # sending: how many of GAI's inputs are under way (tools may send at the same time); targets:
    # where they aim; own: where GAI's last input aimed, GAI's until the pointer is seen elsewhere.
    state = {'sending': 0, 'keys': 0, 'buttons': 0, 'motions': 0, 'targets': [], 'own': [], 'away': False, 'stopped': False}
    modifier_codes = set(k for row in d.get_modifier_mapping() for k in row if k)

    def pointer():
        p = root.query_pointer()
        return p.root_x, p.root_y

    state['left'] = pointer()

    def in_corner(x, y):
        return (x <= CORNER_PX - 1 or x >= width - CORNER_PX) and (y <= CORNER_PX - 1 or y >= height - CORNER_PX)

    def on_screen(point):
        # The X server keeps the pointer on the screen: a point beyond the edge lands on it.
        return (min(max(int(point[0]), 0), width - 1), min(max(int(point[1]), 0), height - 1))

    def near(x, y, points):
        return any(abs(x - tx) <= CORNER_PX and abs(y - ty) <= CORNER_PX for tx, ty in points)

    def check_corner():
        if not config.get('corner') or state['stopped']:
            return
        x, y = pointer()
        if not state['sending'] and (x, y) != tuple(state['left']) and not near(x, y, state['own']):
            # The person moved the pointer: where GAI left it or aimed last is theirs again.
            state['own'] = []
            state['away'] = True
        if not in_corner(x, y) or ((x, y) == tuple(state['left']) and not state['away']):
            return
        # Only pointer positions GAI did not produce count: a point GAI aims at (or aimed at last,
        # its move arriving late) is not the person's signal, even in a corner.
        if (state['sending'] and near(x, y, state['targets'])) or near(x, y, state['own']):
            return
        state['stopped'] = True
        send({'type': 'stop', 'reason': 'corner', 'pointer': [x, y], 'seenAt': time.monotonic() * 1000})

    def drain():
        while d.pending_events():
            ev = d.next_event()
            if ev.type == X.KeyPress and hotkey:
                if not state['stopped']:
                    state['stopped'] = True
                    # ev.time: the X server's millisecond clock (CLOCK_MONOTONIC on Linux servers).
                    send({'type': 'stop', 'reason': 'hotkey', 'serverTime': ev.time, 'seenAt': time.monotonic() * 1000})
                continue
            if ev.type == GenericEventCode and ev.extension == xi_opcode:
                if ev.evtype == xinput.RawMotion:
                    if not state['sending']:
                        state['motions'] += 1
                elif not state['sending']:
                    # A modifier alone acts on nothing (the first keys of the stop hotkey are modifiers).
                    if ev.evtype == xinput.RawKeyPress:
                        if raw_keycode(ev) not in modifier_codes:
                            state['keys'] += 1
                    elif ev.evtype == xinput.RawButtonPress:
                        state['buttons'] += 1

    def person():
        x, y = pointer()
        lx, ly = state['left']
        return {'keys': state['keys'], 'buttons': state['buttons'], 'motions': state['motions'],
                'pointer': [x, y], 'left': [lx, ly], 'moved': (x, y) != (lx, ly) and not near(x, y, state['own'])}

    def forget():
        state['keys'] = state['buttons'] = state['motions'] = 0
        state['left'] = pointer()
        state['away'] = False

    send({'type': 'ready', 'hotkey': hotkey, 'input': raw, 'corner': bool(config.get('corner')),
          'screen': [width, height], 'warnings': warnings})

    stdin = sys.stdin.fileno()
    xfd = d.fileno()
    while True:
        drain()
        # Pointer warps (xdotool, nut-js, remote desktops) make no motion events: poll for corners.
        readable, _, _ = select.select([stdin, xfd], [], [], CORNER_POLL_S if config.get('corner') else 1.0)
        check_corner()
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
            d.sync()  # a round trip: every event the server sent before now is queued
            name = command.get('cmd')
            if name == 'begin':
                drain()
                seen = person()  # what the person did since GAI's last input, up to this moment
                if not state['sending']:
                    state['targets'] = []
                state['sending'] += 1
                state['targets'] += [on_screen(p) for p in command.get('points', [])]
                send({'type': 'ack', 'id': command['id'], 'person': seen})
            elif name == 'end':
                drain()
                state['sending'] = max(0, state['sending'] - 1)
                if not state['sending']:
                    if state['targets']:
                        state['own'] = state['targets']
                    state['targets'] = []
                    forget()
                send({'type': 'ack', 'id': command['id'], 'left': list(state['left'])})
            elif name == 'check':
                drain()
                send({'type': 'ack', 'id': command['id'], 'person': person(), 'stopped': state['stopped']})
            elif name == 'reset':
                drain()
                forget()
                send({'type': 'ack', 'id': command['id'], 'left': list(state['left'])})
            else:
                send({'type': 'ack', 'id': command.get('id'), 'error': 'unknown command %r' % name})

try:
    sys.exit(main())
except (BrokenPipeError, KeyboardInterrupt):
    sys.exit(0)
`;
