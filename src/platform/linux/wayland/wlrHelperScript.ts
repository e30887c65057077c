import { WLR_CAPTURE_SCRIPT } from './wlrCaptureScript';
import { WLR_INPUT_SCRIPT } from './wlrInputScript';
import { WLR_WIRE_SCRIPT } from './wlrWireScript';

// GAI's Wayland helper (python3): one client of the compositor that holds a virtual pointer and
// keyboard on the seat and copies the screen, inlined like the desktop bridge so the bundles need
// no extra file. After each action it waits for wl_display.sync's callback, so the compositor has
// taken the input before Node hears "done" (as XSync does for XTest).
//
// Node → helper, a JSON line each: {"id":N,"cmd":"move"|"button"|"scroll"|"keys"|"mods"|"capture"|"release",...}.
// Helper → Node: {"type":"hello",...} once connected, then {"id":N,"ok":true,...} or
// {"id":N,"ok":false,"error":"..."}. It exits when its stdin closes.
const MAIN = String.raw`
def answer(wl, inp, cap, req):
    cmd = req.get('cmd')
    if cmd == 'capture':
        return cap.capture(int(req['x']), int(req['y']), int(req['width']), int(req['height']))
    if cmd == 'release':
        cap.release(int(req['fd']))
        return {}
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
    return {}

def main():
    runtime = os.environ.get('XDG_RUNTIME_DIR', '')
    name = os.environ.get('WAYLAND_DISPLAY', 'wayland-0')
    path = name if name.startswith('/') else os.path.join(runtime, name)
    try:
        wl = Wayland(path)
        wl.request(1, 1, 'u', 2)  # wl_display.get_registry
        wl.roundtrip()
        inp = Input(wl)
        cap = Capture(wl)
        wl.roundtrip()
    except Exception as e:
        send_line({'type': 'hello', 'error': '%s (%s)' % (e, path)})
        return
    send_line({'type': 'hello', 'pid': os.getpid(), 'capture': cap.problem or 'ok'})
    for line in sys.stdin:
        try:
            req = json.loads(line)
        except Exception:
            continue
        try:
            result = answer(wl, inp, cap, req)
            result.update({'id': req.get('id'), 'ok': True})
            send_line(result)
        except Exception as e:
            send_line({'id': req.get('id'), 'ok': False, 'error': str(e) or type(e).__name__})

main()
`;

export const WLR_HELPER_SCRIPT = [WLR_WIRE_SCRIPT, WLR_INPUT_SCRIPT, WLR_CAPTURE_SCRIPT, MAIN].join('\n');
