// The stop hotkey through the desktop portal's GlobalShortcuts (KDE Plasma 5.27 and later; GNOME
// 48 and later): a session with one shortcut whose preferred trigger is GAI's stop hotkey. KDE
// assigns the trigger through kglobalaccel at once, with no dialog, unless another program holds
// it (then the trigger comes back empty and GAI says so). The desktop sees the key wherever the
// focus is and sends Activated. One helper per request: it closes the session when its stdin
// closes. Lines out: {"type":"ready","trigger":"Ctrl+Alt+Esc"} or {"type":"error",...}, then
// {"type":"stop"} each time the person presses it.
export const PORTAL_SHORTCUTS_SCRIPT = String.raw`
import json, os, sys, threading
try:
    import gi
    from gi.repository import Gio, GLib
except Exception as e:
    print(json.dumps({'type': 'error', 'error': 'python3 lacks GObject introspection (%s): install python3-gi' % e}), flush=True)
    sys.exit(0)

PORTAL = 'org.freedesktop.portal.Desktop'
PATH = '/org/freedesktop/portal/desktop'
GS = 'org.freedesktop.portal.GlobalShortcuts'
NAME = 'gai-stop'

def send(obj):
    sys.stdout.write(json.dumps(obj) + '\n')
    sys.stdout.flush()

def owner_of(trigger):
    # KDE names the shortcut's owner after the session's token. One owner per trigger, the same at
    # each request: it gets its key back every time (a new owner could not take the key the last
    # one still holds), and a key the person gives it in System Settings is kept.
    return 'gaistop_' + ''.join(c if c.isalnum() else '_' for c in trigger)

OWNER = owner_of(sys.argv[1])

def granted(bus):
    # KDE 5.27's portal reports the trigger it asked for even when kglobalaccel gave the key to
    # nobody (another program holds it): kglobalaccel says what the shortcut really has. None
    # where it cannot be asked (another desktop): the portal's answer stands.
    try:
        path = bus.call_sync('org.kde.kglobalaccel', '/kglobalaccel', 'org.kde.KGlobalAccel', 'getComponent', GLib.Variant('(s)', (OWNER,)), None, 0, 3000, None).unpack()[0]
        infos = bus.call_sync('org.kde.kglobalaccel', path, 'org.kde.kglobalaccel.Component', 'allShortcutInfos', None, None, 0, 3000, None).unpack()[0]
        mine = [info for info in infos if info[0] == NAME]
        return bool(mine) and any(key for key in mine[0][6])
    except Exception:
        return None

def main():
    trigger, description = sys.argv[1], sys.argv[2]
    loop = GLib.MainLoop()
    try:
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        bus.call_sync(PORTAL, PATH, 'org.freedesktop.DBus.Properties', 'Get', GLib.Variant('(ss)', (GS, 'version')), None, 0, 5000, None)
    except Exception as e:
        send({'type': 'error', 'error': 'the desktop portal offers no global shortcuts (%s)' % (getattr(e, 'message', None) or e)})
        return
    sender = bus.get_unique_name()[1:].replace('.', '_')
    token = 'gai%d' % os.getpid()
    request = '%s/request/%s/%s' % (PATH, sender, token)
    state = {}
    def activated(conn, who, obj, iface, signal, params, *rest):
        session, name = params.unpack()[:2]
        if session == state.get('session') and name == NAME:
            send({'type': 'stop'})
    def response(conn, who, obj, iface, signal, params, *rest):
        code, results = params.unpack()
        if code != 0:
            send({'type': 'error', 'error': 'the desktop refused GAI\'s global shortcut (answer %d)' % code})
            loop.quit()
            return
        state['session'] = results.get('session_handle')
        given = dict(results.get('shortcuts') or []).get(NAME, {})
        send({'type': 'ready', 'trigger': given.get('trigger_description', '') if granted(bus) is not False else ''})
    bus.signal_subscribe(PORTAL, GS, 'Activated', PATH, None, 0, activated)
    bus.signal_subscribe(PORTAL, 'org.freedesktop.portal.Request', 'Response', request, None, 0, response)
    shortcuts = GLib.Variant('a(sa{sv})', [(NAME, {'description': GLib.Variant('s', description), 'preferred_trigger': GLib.Variant('s', trigger)})])
    try:
        bus.call_sync(PORTAL, PATH, GS, 'CreateSession', GLib.Variant('(a{sv})', ({'handle_token': GLib.Variant('s', token),
            'session_handle_token': GLib.Variant('s', OWNER), 'shortcuts': shortcuts},)), None, 0, 10000, None)
    except Exception as e:
        send({'type': 'error', 'error': 'the desktop portal refused a global-shortcuts session (%s)' % (getattr(e, 'message', None) or e)})
        return
    def watch_stdin():
        for _ in sys.stdin:
            pass
        GLib.idle_add(loop.quit)
    threading.Thread(target=watch_stdin, daemon=True).start()
    loop.run()
    if state.get('session'):
        try:
            bus.call_sync(PORTAL, state['session'], 'org.freedesktop.portal.Session', 'Close', None, None, 0, 3000, None)
        except Exception:
            pass

main()
`;
