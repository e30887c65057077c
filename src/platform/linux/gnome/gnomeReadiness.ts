import { spawnSync } from 'node:child_process';

// Whether GAI can drive this GNOME session, asked the way the helper will work: Mutter's
// remote-desktop and screen-cast interfaces on the session bus, and python3 with GStreamer's
// PipeWire source to read the stream. For `gai doctor` and Check Setup; nothing is started.
/** python3 with GStreamer's PipeWire source and the session bus's names (in \`names\`), or why not. */
export const STREAM_PROBE_HEAD = String.raw`
import sys
try:
    import gi
    gi.require_version('Gst', '1.0')
    from gi.repository import Gio, GLib, Gst
except Exception as e:
    print('python3 lacks GObject introspection or GStreamer (%s): install python3-gi and gir1.2-gstreamer-1.0' % e); sys.exit(0)
Gst.init(None)
if not Gst.ElementFactory.find('pipewiresrc'):
    print("GStreamer has no PipeWire source: install gstreamer1.0-pipewire"); sys.exit(0)
try:
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    names = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'ListNames', None, None, 0, 2000, None).unpack()[0]
except Exception as e:
    print('no session bus (%s)' % e); sys.exit(0)
`;

const PROBE = STREAM_PROBE_HEAD + String.raw`
for name in ('org.gnome.Mutter.RemoteDesktop', 'org.gnome.Mutter.ScreenCast'):
    if name not in names:
        print('%s is not on the session bus: GNOME Shell (or Mutter) was built or started without remote desktop' % name); sys.exit(0)
print('ok')
`;

/** undefined when GAI can drive this GNOME session, else why not. */
export function gnomeProblem(env: NodeJS.ProcessEnv): string | undefined {
  return runProbe(PROBE, env);
}

/** Runs a readiness probe that prints 'ok' or the problem. */
export function runProbe(script: string, env: NodeJS.ProcessEnv): string | undefined {
  const probe = spawnSync('/usr/bin/python3', ['-c', script], { env, encoding: 'utf8', timeout: 5_000 });
  if (probe.error) return `cannot run /usr/bin/python3 (${probe.error.message}): install python3`;
  const said = probe.stdout.trim();
  return said === 'ok' ? undefined : said || `the check ended without an answer (${probe.stderr.trim().split('\n').pop() ?? ''})`;
}
