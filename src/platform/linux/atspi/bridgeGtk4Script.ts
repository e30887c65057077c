// The GTK 4 part of the desktop bridge's tree walk (bridgeAtspiWalkScript.ts). GTK 4 implements
// AT-SPI itself, unlike GTK 3's atk bridge, and (measured on 4.8, Debian 12) differently:
// - only the top-level window is SHOWING; its widgets are VISIBLE, and what is not drawn (a
//   hidden stack page, an info bar folded away) has no size, while a closed popover is not in
//   the tree at all;
// - extents are relative to the window even when asked for the screen, and the window's box
//   excludes the margin around it that GTK keeps for resize handles and its shadow;
// - a popover is its own override-redirect X window, but its widgets' extents are its position
//   in that window plus the position of the widget it points at;
// - a widget without a name is named by its type ("GtkButton", "AdwGizmo"), and a button with a
//   label is named twice ("7 7", "_Retry Retry").
// The X server says where each window is: the windows of the app's process whose size is the
// AT-SPI frame's plus the margins.
export const BRIDGE_GTK4_SCRIPT = String.raw`
import re

# A type name: two or more capitalised parts run together ("GtkButton", "EditorSourceView").
GTK4_TYPE_NAME = re.compile(r'^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$')
# Roles that take their name from the label inside them.
GTK4_LABELLED = {'push button', 'toggle button', 'check box', 'radio button', 'menu item', 'check menu item',
    'radio menu item', 'page tab', 'link', 'menu'}
# GtkPopover wraps its child in this widget: its parent is a popover.
GTK4_POPOVER_CONTENT = 'GtkPopoverContent'
# Largest margin around a window's frame (resize handles, a composited shadow).
GTK4_MAX_MARGIN = 200

def gtk4_toolkit(app):
    """Whether the application is GTK 4 (told by its toolkit name and version over AT-SPI)."""
    try:
        return (app.get_toolkit_name() or '') == 'GTK' and (app.get_toolkit_version() or '').startswith('4.')
    except Exception:
        return False

class Gtk4Places:
    """Where a GTK 4 app's windows and popovers are on the screen, from one look at the X server."""
    def __init__(self, x11, pid):
        self.x11, self.pid = x11, pid
        self.managed = None
        self.popups = None

    def windows(self):
        if self.managed is None:
            try:
                self.managed = [w for w in self.x11.windows() if w.get('pid') == self.pid]
            except Exception:
                self.x11.reset()
                self.managed = []
        return self.managed

    def frame_extents(self, wid):
        try:
            value = self.x11.prop(self.x11.display().create_resource_object('window', int(wid, 16)), '_GTK_FRAME_EXTENTS')
            return [int(v) for v in value] if value is not None and len(value) == 4 else None
        except Exception:
            return None

    def frame_shift(self, title, frame):
        """What to add to the frame's reported boxes to get screen pixels, or None when no window
        (or more than one equally) fits. frame: the top-level's (x, y, width, height) as reported."""
        fits = []
        for info in self.windows():
            bx, by, bw, bh = info['bounds']
            margins = self.frame_extents(info['id'])
            if margins is not None:
                left, right, top, bottom = margins
                if bw - left - right != frame[2] or bh - top - bottom != frame[3]:
                    continue
            else:
                # Without a compositor GTK 4 keeps the same margin on every side.
                dw, dh = bw - frame[2], bh - frame[3]
                if not (0 <= dw <= GTK4_MAX_MARGIN and 0 <= dh <= GTK4_MAX_MARGIN) or dw % 2 or dh % 2:
                    continue
                left, top = dw // 2, dh // 2
            fits.append(((info.get('title') or '') != title, (bx + left - frame[0], by + top - frame[1])))
        if not fits:
            return None
        fits.sort(key=lambda f: f[0])
        if len(fits) > 1 and fits[0][0] == fits[1][0] and fits[0][1] != fits[1][1]:
            return None  # two windows alike: where this one is cannot be told
        return fits[0][1]

    def popup_at(self, size):
        """The screen box of the app's one popup X window of this size, or None."""
        if self.popups is None:
            try:
                self.popups = [w for w in self.x11.popups() if w.get('pid') == self.pid]
            except Exception:
                self.x11.reset()
                self.popups = []
        same = [w['bounds'] for w in self.popups if w['bounds'][2] == size[0] and w['bounds'][3] == size[1]]
        return tuple(same[0]) if len(same) == 1 else None

# What gtk4_box says of a widget that has a box without a size.
GTK4_NO_SIZE = 'no size'

def gtk4_box(node, SCREEN, shift):
    """The node's screen box; None when it has none (GtkStackPage has no Component interface, but
    its page may show); GTK4_NO_SIZE when it is not drawn: GTK 4 gives what it does not draw, and
    everything inside it, no width or no height."""
    try:
        e = node.get_extents(SCREEN)
    except Exception:
        return None
    if e.x < -100000 or e.y < -100000:
        return None
    if e.width <= 0 or e.height <= 0:
        return GTK4_NO_SIZE
    return (e.x + shift[0], e.y + shift[1], e.width, e.height)

def gtk4_popover(node, SCREEN, places):
    """For a popover's content node: (shift, screen box) of the popover's X window, or None
    when it cannot be placed (then the popover is left to OCR)."""
    try:
        parent = node.get_parent()
        e = parent.get_extents(SCREEN)
    except Exception:
        return None
    box = places.popup_at((e.width, e.height))
    if box is None:
        return None
    return (box[0] - e.x, box[1] - e.y), box

def gtk4_plain_name(name, role):
    """A type name is no name; labels keep theirs (a label reading "GitHub" is named so), but
    "GtkLabel" is the type of an empty one."""
    if GTK4_TYPE_NAME.match(name) and (role not in ('label', 'static', 'heading') or name.startswith(('Gtk', 'Adw'))):
        return ''
    return name

def gtk4_shown_name(name, labels):
    """A button's name as it shows: its label's text when it was named by type or twice."""
    if name == '':
        return ' '.join(labels)
    words = name.split(' ')
    half = len(words) // 2
    if len(words) % 2 == 0 and half > 0:
        first, second = ' '.join(words[:half]), ' '.join(words[half:])
        # "7 7", "_Retry Retry": the mnemonic form then the label.
        if first.replace('_', '') == second and second in labels:
            return second
    return name

def gtk4_uncovered(out, keys, popups):
    """The window's elements that no open popover covers, with their keys."""
    if not popups:
        return out, keys
    kept, kept_keys = [], []
    for item, key in zip(out, keys):
        b = item['box']
        cx, cy = b[0] + b[2] / 2, b[1] + b[3] / 2
        if not item.get('popup') and any(p[0] <= cx < p[0] + p[2] and p[1] <= cy < p[1] + p[3] for p in popups):
            continue
        kept.append(item)
        kept_keys.append(key)
    return kept, kept_keys
`;
