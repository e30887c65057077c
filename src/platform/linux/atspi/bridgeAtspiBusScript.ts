// The bridge's way onto the accessibility bus (before bridgeAtspiScript.ts's Tree starts): is
// there a bus at all (libatspi aborts the process without one), and ask the applications that
// look at start whether assistive technology runs to register with it.
export const BRIDGE_ATSPI_BUS_SCRIPT = String.raw`
def find_bus_problem(Gio, GLib):
    if os.environ.get('AT_SPI_BUS_ADDRESS'):
        return None
    try:
        from Xlib import display
        d = display.Display()
        try:
            if d.screen().root.get_full_property(d.intern_atom('AT_SPI_BUS'), 0) is not None:
                return None
        finally:
            d.close()
    except Exception:
        pass
    # As libatspi would: ask the session bus (GLib starts one for this display if none runs).
    try:
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        bus.call_sync('org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus', 'GetAddress', None,
            GLib.VariantType.new('(s)'), Gio.DBusCallFlags.NONE, 5000, None)
        return None
    except Exception as e:
        return 'no accessibility bus: no AT_SPI_BUS on the X root window and the session bus has no org.a11y.Bus (%s)' % e

def enable_accessibility(Gio, GLib):
    # Apps that ask at start whether assistive technology runs (Chromium, Firefox, Qt) register
    # with AT-SPI only when org.a11y.Status IsEnabled is true; Qt also follows later changes.
    try:
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        bus.call_sync('org.a11y.Bus', '/org/a11y/bus', 'org.freedesktop.DBus.Properties', 'Set',
            GLib.Variant('(ssv)', ('org.a11y.Status', 'IsEnabled', GLib.Variant('b', True))),
            None, Gio.DBusCallFlags.NONE, 2000, None)
        return 'enabled'
    except Exception as e:
        return 'not enabled: %s' % e
`;
