// The desktop bridge's window hints on a Wayland compositor that tells a client nothing about
// windows (GNOME's Mutter): the tree is read as the toolkits report it, each window's boxes
// relative to that window, and placed on the screen in Node (gnome/windowPlacer.ts), which
// finds each window's place by matching its labels against the screen's text.
export const BRIDGE_FRAMES_SCRIPT = String.raw`
class WaylandHints:
    # What the bridge's X11 half asks of its hints; on Wayland there is no X display.
    def display(self):
        raise RuntimeError('no X display on Wayland')

    def reset(self):
        pass

    def prop(self, w, name):
        return None

class UnplacedHints(WaylandHints):
    # Boxes stay as reported: placed in Node, not here.
    window_relative = False
    # With no keyboard on the seat (a headless Mutter before GAI's session adds one) GTK calls
    # no window active: a lone window is then taken as the active one.
    lone_when_none_active = True
    # GNOME Shell is an application of the tree too (its top bar, overview, dialogs), but it
    # answers only between the frames it paints: it is asked for the active window only when no
    # application's window is active, and never for the list of application windows.
    compositor_apps = ('gnome-shell',)

    def active_hint(self):
        return None, None  # AT-SPI's active state decides

    def windows(self):
        return []

    def popups(self):
        return []

    def origin(self, pid, title, size, popup):
        return None
`;
