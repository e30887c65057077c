"""Ground truth for the real-app tests: every showing, named element of one application's
showing top-level windows (its main window, an open menu, a dialog), with its screen box, read
from AT-SPI independently of the product's adapter. Prints one JSON object.

GTK 4 apps are read as a person sees them (gtk4_windows below): GTK 4 marks only its
top-level window SHOWING, reports boxes relative to the window (popovers: to their own X window,
offset by the widget they point at), and names a labelled button by its type or twice; so its
windows are placed from the X server, a widget counts when it is VISIBLE with a size inside its
window and no open popover covers it, and a button that holds a label is left to that label.

usage: atspiTruth.py PID [APP_NAME]
"""
import json
import re
import sys
import time

# A window's title or a panel's name is no place to click: containers are left out.
CONTAINERS = {'application', 'frame', 'window', 'dialog', 'alert', 'file chooser', 'filler', 'panel',
    'scroll pane', 'viewport', 'layered pane', 'root pane', 'split pane', 'glass pane', 'internal frame',
    'desktop frame', 'option pane', 'page tab list', 'menu bar', 'tool bar', 'status bar', 'scroll bar',
    'separator', 'table', 'tree table', 'list', 'list box', 'tree', 'document frame', 'document web',
    'section', 'form', 'grouping', 'redundant object', 'unknown', 'invalid', 'popup menu', 'tool tip',
    'animation'}  # a spinner draws nothing while idle
MAX_NODES = 6000
MAX_TEXT = 4000
# Identifiers and numbers of code, two characters or more: what a person would point at by name
WORD = re.compile(r'[A-Za-z_][A-Za-z0-9_.]*[A-Za-z0-9_]|[0-9]{2,}')
# GTK 4 names a widget without a name by its type: "GtkButton", "AdwGizmo", "EditorSourceView".
TYPE_NAME = re.compile(r'^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$')
GTK4_BUTTONS = {'push button', 'toggle button', 'menu item', 'radio menu item', 'check menu item', 'menu'}


class Gtk4Screen:
    """The app's X windows: managed ones by title, popups (override-redirect) by size."""

    def __init__(self, pid):
        from Xlib import display, X
        self.d = display.Display()
        root = self.d.screen().root
        self.windows, self.popups = [], []
        pid_atom, name_atom = self.d.intern_atom('_NET_WM_PID'), self.d.intern_atom('_NET_WM_NAME')
        clients = root.get_full_property(self.d.intern_atom('_NET_CLIENT_LIST'), X.AnyPropertyType)
        client_ids = set(int(c) for c in (clients.value if clients is not None else []))
        for w in root.query_tree().children:
            for win in [w] + list(w.query_tree().children):
                try:
                    attrs = win.get_attributes()
                    p = win.get_full_property(pid_atom, X.AnyPropertyType)
                    if attrs.map_state != X.IsViewable or p is None or int(p.value[0]) != pid:
                        continue
                    g = win.get_geometry()
                    at = root.translate_coords(win, 0, 0)
                    n = win.get_full_property(name_atom, X.AnyPropertyType)
                    title = n.value.decode('utf-8', 'replace') if n is not None else ''
                    box = (at.x, at.y, g.width, g.height)
                    if win.id in client_ids:
                        self.windows.append((title, box))
                    elif attrs.override_redirect and g.width > 1:
                        self.popups.append(box)
                except Exception:
                    continue

    def frame_origin(self, title, width, height):
        """Screen position of a top-level frame of this title: its X window less GTK's even margin."""
        for t, box in self.windows:
            if t == title and box[2] >= width and box[3] >= height:
                return box[0] + (box[2] - width) // 2, box[1] + (box[3] - height) // 2
        return None

    def popup_of_size(self, width, height):
        same = [b for b in self.popups if b[2] == width and b[3] == height]
        return same[0] if len(same) == 1 else None


def is_gtk4(app):
    try:
        return app.get_toolkit_name() == 'GTK' and app.get_toolkit_version().startswith('4.')
    except Exception:
        return False


def gtk4_windows(Atspi, app, pid, windows, out):
    """Every drawn, named widget of a GTK 4 app's showing windows, in screen pixels."""
    SHOWING, VISIBLE = Atspi.StateType.SHOWING, Atspi.StateType.VISIBLE
    WINDOW = Atspi.CoordType.WINDOW
    screen = Gtk4Screen(pid)
    mine = []
    popovers = []

    def extents(node):
        try:
            e = node.get_extents(WINDOW)
        except Exception:
            return None
        return (e.x, e.y, e.width, e.height)

    def labels_under(node, depth=0):
        found = []
        if depth > 6:
            return found
        for i in range(min(node.get_child_count(), 50)):
            child = node.get_child_at_index(i)
            if child is None:
                continue
            if child.get_role_name() == 'label' and (child.get_name() or '').strip():
                found.append(child)
            found.extend(labels_under(child, depth + 1))
        return found

    def walk(node, depth, top, origin, bound, in_popover):
        if depth > 60:
            return
        try:
            states = node.get_state_set()
            if not (states.contains(VISIBLE) or states.contains(SHOWING)):
                return
            role = node.get_role_name() or ''
            raw_name = node.get_name() or ''
            if raw_name == 'GtkPopoverContent':
                parent = extents(node.get_parent())
                popup = screen.popup_of_size(parent[2], parent[3]) if parent else None
                if popup is None:
                    return
                origin, bound, in_popover = (popup[0] - parent[0], popup[1] - parent[1]), popup, True
                popovers.append(popup)
            e = extents(node)
            box = None
            if e is not None and e[2] > 0 and e[3] > 0:
                box = [e[0] + origin[0], e[1] + origin[1], e[2], e[3]]
                cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
                if not (bound[0] <= cx < bound[0] + bound[2] and bound[1] <= cy < bound[1] + bound[3]):
                    return  # scrolled away or cut off
            label = raw_name.strip()
            # A label keeps a name like "GitHub" (its text), not "GtkLabel" (a type: no text).
            named = label and not (TYPE_NAME.match(label) and (role != 'label' or label.startswith(('Gtk', 'Adw'))))
            # A button that holds a label shows that label: the label is the ground truth there.
            if named and role in GTK4_BUTTONS and labels_under(node):
                named = False
            if box is not None and named and role not in CONTAINERS:
                mine.append(({'name': label, 'role': role, 'box': box, 'window': top,
                    'states': [s.value_nick for s in states.get_states()]}, in_popover))
            if box is not None and role == 'text' and states.contains(Atspi.StateType.EDITABLE):
                gtk4_words(Atspi, node, top, origin, bound, mine)
            count = node.get_child_count()
        except Exception:
            return
        for i in range(min(count, 500)):
            try:
                child = node.get_child_at_index(i)
            except Exception:
                continue
            if child is not None:
                walk(child, depth + 1, top, origin, bound, in_popover)

    for i in range(app.get_child_count()):
        top = app.get_child_at_index(i)
        try:
            if top is None or not top.get_state_set().contains(SHOWING):
                continue
            title = top.get_name() or ''
            e = extents(top)
            at = screen.frame_origin(title, e[2], e[3])
        except Exception:
            continue
        if at is None:
            continue
        box = [at[0], at[1], e[2], e[3]]
        windows.append({'name': title, 'role': top.get_role_name() or '', 'box': box})
        walk(top, 0, title, (at[0] - e[0], at[1] - e[1]), box, False)
    for item, in_popover in mine:
        b = item['box']
        cx, cy = b[0] + b[2] / 2, b[1] + b[3] / 2
        # What an open popover covers is not drawn.
        if not in_popover and any(p[0] <= cx < p[0] + p[2] and p[1] <= cy < p[1] + p[3] for p in popovers):
            continue
        out.append(item)


def gtk4_words(Atspi, node, top, origin, bound, mine):
    # GTK 4 gives character boxes (relative to the window), not those of ranges.
    WINDOW = Atspi.CoordType.WINDOW
    count = Atspi.Text.get_character_count(node)
    text = Atspi.Text.get_text(node, 0, min(count, MAX_TEXT))
    for match in WORD.finditer(text):
        a = Atspi.Text.get_character_extents(node, match.start(), WINDOW)
        z = Atspi.Text.get_character_extents(node, match.end() - 1, WINDOW)
        if a.width <= 0 or a.height <= 0 or z.y != a.y:
            continue
        box = [a.x + origin[0], a.y + origin[1], z.x + z.width - a.x, a.height]
        cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
        if bound[0] <= cx < bound[0] + bound[2] and bound[1] <= cy < bound[1] + bound[3]:
            mine.append(({'name': match.group(0), 'role': 'word', 'box': box, 'window': top, 'states': []}, False))


def main():
    pid = int(sys.argv[1])
    name = sys.argv[2] if len(sys.argv) > 2 else ''
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi
    SHOWING = Atspi.StateType.SHOWING
    SCREEN = Atspi.CoordType.SCREEN
    desktop = Atspi.get_desktop(0)
    apps = []
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        try:
            if app is not None and (app.get_process_id() == pid or (name and app.get_name() == name)):
                apps.append(app)
        except Exception:
            continue
    out = []
    windows = []
    visited = [0]

    def box_of(node):
        e = node.get_extents(SCREEN)
        if e.width <= 0 or e.height <= 0 or e.x < -100000 or e.y < -100000:
            return None
        return [e.x, e.y, e.width, e.height]

    def inside(box, bound):
        # The centre must be within the window: rows scrolled away keep SHOWING in some toolkits.
        cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
        return bound is None or (bound[0] <= cx < bound[0] + bound[2] and bound[1] <= cy < bound[1] + bound[3])

    def walk(node, depth, top, bound):
        if visited[0] >= MAX_NODES or depth > 60:
            return
        visited[0] += 1
        try:
            states = node.get_state_set()
            if not states.contains(SHOWING):
                return
            role = node.get_role_name() or ''
            box = box_of(node)
            label = (node.get_name() or '').strip()
            if box is not None and label and role not in CONTAINERS and inside(box, bound):
                out.append({'name': label, 'role': role, 'box': box, 'window': top,
                    'states': [s.value_nick for s in states.get_states()]})
            if box is not None and role == 'text' and states.contains(Atspi.StateType.EDITABLE):
                words_of(node, top, bound)
            count = node.get_child_count()
            if role in ('menu', 'popup menu', 'menu item'):
                bound = None  # its items drop down in a popup, maybe past the window
        except Exception:
            return
        for i in range(min(count, 500)):
            try:
                child = node.get_child_at_index(i)
            except Exception:
                continue
            if child is not None:
                walk(child, depth + 1, top, bound)

    def words_of(node, top, bound):
        # The words of an editor's text (code), each with the box of its characters on screen.
        count = Atspi.Text.get_character_count(node)
        text = Atspi.Text.get_text(node, 0, min(count, MAX_TEXT))
        for match in WORD.finditer(text):
            e = Atspi.Text.get_range_extents(node, match.start(), match.end(), SCREEN)
            box = [e.x, e.y, e.width, e.height]
            if e.width > 0 and e.height > 0 and inside(box, bound):
                out.append({'name': match.group(0), 'role': 'word', 'box': box, 'window': top, 'states': []})

    for app in apps:
        if is_gtk4(app):
            gtk4_windows(Atspi, app, pid, windows, out)
            continue
        for i in range(app.get_child_count()):
            top = app.get_child_at_index(i)
            try:
                if top is None or not top.get_state_set().contains(SHOWING):
                    continue
                title = top.get_name() or ''
                role = top.get_role_name() or ''
                bound = box_of(top)
            except Exception:
                continue
            windows.append({'name': title, 'role': role, 'box': bound})
            walk(top, 0, title or role, bound if role not in ('menu', 'popup menu', 'window') else None)
    return {'ok': True, 'apps': [a.get_name() for a in apps], 'windows': windows, 'elements': out, 'visited': visited[0]}


if __name__ == '__main__':
    started = time.monotonic()
    try:
        result = main()
    except Exception as e:  # reported, not raised: the caller shows it with the app's name
        result = {'ok': False, 'error': '%s: %s' % (type(e).__name__, e)}
    result['ms'] = round((time.monotonic() - started) * 1000)
    print(json.dumps(result))
