import { BRIDGE_ATSPI_ACT_SCRIPT } from './atspi/bridgeAtspiActScript';
import { BRIDGE_ATSPI_BUS_SCRIPT } from './atspi/bridgeAtspiBusScript';
import { BRIDGE_ATSPI_CELLS_SCRIPT } from './atspi/bridgeAtspiCellsScript';
import { BRIDGE_ATSPI_EVENTS_SCRIPT } from './atspi/bridgeAtspiEventsScript';
import { BRIDGE_ATSPI_FOCUS_SCRIPT } from './atspi/bridgeAtspiFocusScript';
import { BRIDGE_ATSPI_PARTS_SCRIPT } from './atspi/bridgeAtspiPartsScript';
import { BRIDGE_ATSPI_SCRIPT } from './atspi/bridgeAtspiScript';
import { BRIDGE_ATSPI_TEXT_SCRIPT } from './atspi/bridgeAtspiTextScript';
import { BRIDGE_ATSPI_WALK_SCRIPT } from './atspi/bridgeAtspiWalkScript';
import { BRIDGE_GTK4_SCRIPT } from './atspi/bridgeGtk4Script';
import { BRIDGE_X11_SCRIPT } from './x11/bridgeX11Script';
import { BRIDGE_FRAMES_SCRIPT } from './wayland/bridgeFramesScript';
import { BRIDGE_SWAY_SCRIPT } from './wayland/bridgeSwayScript';
import { BRIDGE_KWIN_SCRIPT } from './kde/bridgeKwinScript';

// The desktop bridge's python3 helper, inlined like the interrupt watcher's so the esbuild
// bundles need no extra file.
//
// Protocol, one JSON object a line. Node → helper on stdin: {"id":N,"cmd":...,...}.
// Helper → Node on stdout: {"type":"hello",...} once, then {"id":N,"ok":true,...} or
// {"id":N,"ok":false,"error":"..."} for each request, in any order.
// Window questions (active, activeId, windows, popups) are answered on the thread that reads stdin;
// accessibility questions (probe, elements, text, focused, digest, act) on the GLib main loop, which also
// receives the AT-SPI events that keep the tree cache honest. It exits when its stdin closes:
// it never outlives the Node process.
const PRELUDE = String.raw`
import hashlib, json, os, queue, sys, threading, time

CALL_TIMEOUT_MS = 1500
OUT = threading.Lock()

def send(obj):
    data = json.dumps(obj) + '\n'
    with OUT:
        sys.stdout.write(data)
        sys.stdout.flush()
`;

const MAIN = String.raw`
X11_COMMANDS = {'active', 'activeId', 'windows', 'popups'}
PENDING = queue.Queue()
BUSY = [False]

def reply(req, answer):
    try:
        result = answer(req)
        result['id'] = req.get('id')
        result['ok'] = True
        send(result)
    except Exception as e:
        send({'id': req.get('id'), 'ok': False, 'error': str(e) or type(e).__name__})

def pump():
    # Nested main-loop iterations (while draining events) may call this again: the outer call
    # goes on until the queue is empty.
    if BUSY[0]:
        return False
    BUSY[0] = True
    try:
        while True:
            try:
                req = PENDING.get_nowait()
            except queue.Empty:
                break
            reply(req, answer_atspi)
    finally:
        BUSY[0] = False
    return False

def read_requests(GLib):
    for line in sys.stdin:
        try:
            req = json.loads(line)
        except Exception:
            continue
        if req.get('cmd') in X11_COMMANDS:
            # On KDE Plasma the window questions go to KWin (bridgeKwinScript.ts), else to X.
            reply(req, getattr(X11_HINTS, 'answer', answer_x11))
        elif GLib is None:
            send({'id': req.get('id'), 'ok': False, 'error': GI_PROBLEM})
        else:
            PENDING.put(req)
            GLib.idle_add(pump)
    os._exit(0)  # stdin closed: the parent is gone or done with us

try:
    from gi.repository import GLib as MAIN_GLIB
    GI_PROBLEM = None
except Exception as e:
    MAIN_GLIB = None
    GI_PROBLEM = 'python3 cannot import gi.repository (install python3-gi and gir1.2-atspi-2.0): %s' % e

send({'type': 'hello', 'pid': os.getpid(), 'gi': GI_PROBLEM})
if MAIN_GLIB is None:
    read_requests(None)
else:
    threading.Thread(target=read_requests, args=(MAIN_GLIB,), daemon=True).start()
    MAIN_GLIB.MainLoop().run()
`;

export const DESKTOP_BRIDGE_SCRIPT = [PRELUDE, BRIDGE_X11_SCRIPT, BRIDGE_FRAMES_SCRIPT, BRIDGE_SWAY_SCRIPT, BRIDGE_KWIN_SCRIPT, BRIDGE_GTK4_SCRIPT, BRIDGE_ATSPI_WALK_SCRIPT, BRIDGE_ATSPI_FOCUS_SCRIPT, BRIDGE_ATSPI_CELLS_SCRIPT, BRIDGE_ATSPI_ACT_SCRIPT, BRIDGE_ATSPI_TEXT_SCRIPT, BRIDGE_ATSPI_BUS_SCRIPT, BRIDGE_ATSPI_EVENTS_SCRIPT, BRIDGE_ATSPI_PARTS_SCRIPT, BRIDGE_ATSPI_SCRIPT, MAIN].join('\n');
