"""Ground truth for the real-app tests: every showing, named element of one application's
showing top-level windows (its main window, an open menu, a dialog), with its screen box, read
from AT-SPI independently of the product's adapter. Prints one JSON object.

Only what a person sees counts: an element whose centre lies outside an ancestor's box, or under
an ancestor that is 0 px wide or high (LibreOffice's hidden duplicate menu bar), is not drawn;
a menu's or combo box's items drop down outside it. A label without a name shows its text (a
status bar field). The cells of a table that makes them on demand (Calc's sheet, 2^30 cells)
are read from the rows and columns its box shows, not by walking its children.

GTK 4 apps are read as a person sees them (gtk4_windows below): GTK 4 marks only its
top-level window SHOWING, reports boxes relative to the window (popovers: to their own X window,
offset by the widget they point at), and names a labelled button by its type or twice; so its
windows are placed from the X server, a widget counts when it is VISIBLE with a size inside its
window and no open popover covers it, and a button that holds a label is left to that label.

What is under an open popup menu it is not part of, or under the app's active window when it is in
another one, is not drawn either; elements the toolkit calls showing that are wholly cut off or
wholly covered are returned apart ('hidden'), for tests that they are never clicked there. Qt
places every line's words of a text view on its first line: Qt apps have no word truth.

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
    'animation',  # a spinner draws nothing while idle
    'document text', 'document spreadsheet', 'document presentation'}  # a file's name, not drawn
# Their children drop down outside their box; these are drawn over their parent.
DROPS = {'menu', 'popup menu', 'menu item', 'combo box'}
POPUPS = {'menu', 'popup menu', 'window', 'tool tip'}
# Popups that cover what lies under them (a GTK menu is a top-level 'window'; a Qt one a 'popup menu').
COVERING = {'popup menu', 'window', 'tool tip'}
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
    clipped = []
    windows = []
    covers = []
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

    def zero_size(node):
        # Real coordinates, no width or height: nothing of it, or inside it, is drawn.
        e = node.get_extents(SCREEN)
        # (A GTK 3 notebook page says -1 x -1: that is no box at all.)
        return e.x > -100000 and e.y > -100000 and (e.width == 0 or e.height == 0) and e.width >= 0 and e.height >= 0

    def narrowed(bound, box):
        if box is None:
            return bound
        if bound is None:
            return box
        x0, y0 = max(bound[0], box[0]), max(bound[1], box[1])
        x1, y1 = min(bound[0] + bound[2], box[0] + box[2]), min(bound[1] + bound[3], box[1] + box[3])
        return [x0, y0, max(0, x1 - x0), max(0, y1 - y0)]

    def moved(node, role, parent_box, offset):
        # LibreOffice (GTK 3 plugin) reports what VCL draws under its root pane off by the native
        # menu bar's height (seen on screenshots); the GTK panel around the root pane, and GTK
        # widgets embedded in VCL, report their true place. (box, offset for the subtree).
        box = box_of(node)
        if box is None or parent_box is None or abs(box[2] - parent_box[2]) > 2 or abs(box[3] - parent_box[3]) > 2:
            return box, offset
        if offset is None and role == 'root pane' and box[:2] != parent_box[:2]:
            return box, (parent_box[0] - box[0], parent_box[1] - box[1])
        if offset is not None and box[0] == parent_box[0] + offset[0] and box[1] == parent_box[1] + offset[1]:
            return box, None  # an embedded GTK widget: where it says it is
        return box, offset

    def walk(node, depth, top, bound, parent_box=None, offset=None, popups=(), qt=False, office=False):
        if visited[0] >= MAX_NODES or depth > 60:
            return
        visited[0] += 1
        try:
            states = node.get_state_set()
            if not states.contains(SHOWING) or states.contains(Atspi.StateType.DEFUNCT):
                return
            role = node.get_role_name() or ''
            raw, offset = moved(node, role, parent_box, offset)
            box = raw if raw is None or offset is None else [raw[0] + offset[0], raw[1] + offset[1], raw[2], raw[3]]
            if role in POPUPS:
                bound = None  # a popup of its own, drawn over its parent
            if role in COVERING and box is not None and depth > 0:
                covers.append(box)
                popups = list(popups) + [box]
            if box is None and zero_size(node) and role not in DROPS:
                return
            label = (node.get_name() or '').strip()
            if box is not None and bound is not None and narrowed(bound, box)[2] * narrowed(bound, box)[3] == 0:
                if label and role not in CONTAINERS:
                    clipped.append({'name': label, 'role': role, 'box': box, 'window': top, 'states': [], 'popups': popups})
                return  # wholly outside an ancestor: cut off or scrolled away, its children with it
            if not label and role in ('label', 'status bar item') and 'Text' in node.get_interfaces():
                label = text_of(node)
            if box is not None and label and role not in CONTAINERS and inside(box, bound):
                out.append({'name': label, 'role': role, 'box': box, 'window': top,
                    'states': [s.value_nick for s in states.get_states()], 'popups': popups})
            if box is not None and role == 'text' and states.contains(Atspi.StateType.EDITABLE) and not qt:
                words_of(node, top, bound, popups)
            # A sheet that makes its cells on demand (LibreOffice Calc); a GTK 3 tree view also
            # manages its descendants but holds its few rows: those are walked.
            if states.contains(Atspi.StateType.MANAGES_DESCENDANTS) and (office or node.get_child_count() > 500):
                if box is not None and 'Table' in node.get_interfaces():
                    cells_of(node, top, narrowed(bound, box), offset or (0, 0))
                return
            count = node.get_child_count()
            if role in DROPS:
                bound = None  # its items drop down in a popup, maybe past the window
            elif role != 'page tab' or office:  # a GTK page tab's box is its title; its page lies outside it (LibreOffice's: as read before)
                bound = narrowed(bound, box)
        except Exception:
            return
        for i in range(min(count, 500)):
            try:
                child = node.get_child_at_index(i)
            except Exception:
                continue
            if child is not None:
                walk(child, depth + 1, top, bound, raw, offset, popups, qt, office)

    def text_of(node):
        # Asking past the end gives nothing in LibreOffice: ask for what there is.
        count = Atspi.Text.get_character_count(node)
        return Atspi.Text.get_text(node, 0, min(count, 200)).strip() if count > 0 else ''

    def cells_of(node, top, bound, offset):
        # The cells showing: from the one at the box's top left to the one at its bottom right
        # (asked in the app's own coordinates).
        first = Atspi.Component.get_accessible_at_point(node, bound[0] - offset[0] + 2, bound[1] - offset[1] + 2, SCREEN)
        last = Atspi.Component.get_accessible_at_point(node, bound[0] - offset[0] + bound[2] - 3, bound[1] - offset[1] + bound[3] - 3, SCREEN)
        if first is None or last is None:
            return
        r0, c0 = Atspi.Table.get_row_at_index(node, first.get_index_in_parent()), Atspi.Table.get_column_at_index(node, first.get_index_in_parent())
        r1, c1 = Atspi.Table.get_row_at_index(node, last.get_index_in_parent()), Atspi.Table.get_column_at_index(node, last.get_index_in_parent())
        # Our sheet fills its first columns and rows: the app makes each cell asked for, so the
        # empty rest of the screen is not asked about.
        for r in range(r0, min(r1, r0 + 15) + 1):
            for c in range(c0, min(c1, c0 + 6) + 1):
                cell = Atspi.Table.get_accessible_at(node, r, c)
                if cell is None:
                    continue
                text = text_of(cell) if 'Text' in cell.get_interfaces() else ''
                box = box_of(cell)
                box = box and [box[0] + offset[0], box[1] + offset[1], box[2], box[3]]
                if text and box is not None and inside(box, bound):
                    out.append({'name': text, 'role': 'table cell', 'box': box, 'window': top, 'states': []})

    def words_of(node, top, bound, popups):
        # The words of an editor's text (code), each with the box of its characters on screen.
        count = Atspi.Text.get_character_count(node)
        text = Atspi.Text.get_text(node, 0, min(count, MAX_TEXT))
        for match in WORD.finditer(text):
            e = Atspi.Text.get_range_extents(node, match.start(), match.end(), SCREEN)
            box = [e.x, e.y, e.width, e.height]
            if e.width > 0 and e.height > 0 and inside(box, bound):
                out.append({'name': match.group(0), 'role': 'word', 'box': box, 'window': top, 'states': [], 'popups': popups})

    for app in apps:
        if is_gtk4(app):
            gtk4_windows(Atspi, app, pid, windows, out)
            continue
        qt = (app.get_toolkit_name() or '').lower() == 'qt'
        office = app.get_name() == 'soffice'
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
            active = top.get_state_set().contains(Atspi.StateType.ACTIVE)
            windows.append({'name': title, 'role': role, 'box': bound, 'active': active})
            popup = role in COVERING or role == 'menu'
            if popup and bound is not None:
                covers.append(bound)
            walk(top, 0, title or role, bound if not popup else None, None, None, [bound] if popup and bound is not None else [], qt, office)
    # Under a popup it is not part of, or under the active window from another one: not drawn.
    above = [w['box'] for w in windows if w.get('active') and w['box'] is not None]
    titles = {w['name'] or w['role'] for w in windows if w.get('active')}
    def over(e):
        found = [c for c in covers if not any(c == own for own in e.get('popups', []))]
        return found + above if not e.get('popups') and e['window'] not in titles else found
    def covered(e):
        cx, cy = e['box'][0] + e['box'][2] / 2, e['box'][1] + e['box'][3] / 2
        return any(c[0] <= cx < c[0] + c[2] and c[1] <= cy < c[1] + c[3] for c in over(e))
    def wholly_covered(e):
        b = e['box']
        return any(c[0] <= b[0] and c[1] <= b[1] and b[0] + b[2] <= c[0] + c[2] and b[1] + b[3] <= c[1] + c[3] for c in over(e))
    plain = lambda e: dict((k, v) for k, v in e.items() if k != 'popups')
    drawn = [plain(e) for e in out if not covered(e)]
    hidden = [plain(e) for e in clipped + [e for e in out if wholly_covered(e)] if e['role'] != 'word']
    return {'ok': True, 'apps': [a.get_name() for a in apps], 'windows': windows, 'elements': drawn, 'hidden': hidden, 'visited': visited[0]}


if __name__ == '__main__':
    started = time.monotonic()
    try:
        result = main()
    except Exception as e:  # reported, not raised: the caller shows it with the app's name
        result = {'ok': False, 'error': '%s: %s' % (type(e).__name__, e)}
    result['ms'] = round((time.monotonic() - started) * 1000)
    print(json.dumps(result))
