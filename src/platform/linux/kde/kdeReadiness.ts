import { runProbe, STREAM_PROBE_HEAD } from '../gnome/gnomeReadiness';

// Whether GAI can drive this KDE Plasma session, asked the way it will work: the desktop portal's
// RemoteDesktop (xdg-desktop-portal with its KDE backend), KWin's scripting for the windows, and
// python3 with GStreamer's PipeWire source for the stream. For `gai doctor` and Check Setup.
const PROBE = STREAM_PROBE_HEAD + String.raw`
if 'org.kde.KWin' not in names:
    print('KWin is not on the session bus (org.kde.KWin): GAI reads windows through its scripting'); sys.exit(0)
try:
    bus.call_sync('org.freedesktop.portal.Desktop', '/org/freedesktop/portal/desktop', 'org.freedesktop.DBus.Properties', 'Get',
        GLib.Variant('(ss)', ('org.freedesktop.portal.RemoteDesktop', 'version')), None, 0, 5000, None)
except Exception as e:
    print('the desktop portal offers no remote desktop (%s): install xdg-desktop-portal and xdg-desktop-portal-kde' % getattr(e, 'message', e)); sys.exit(0)
print('ok')
`;

/** undefined when GAI can drive this KDE Plasma session, else why not. */
export function kdeProblem(env: NodeJS.ProcessEnv): string | undefined {
  return runProbe(PROBE, env);
}
