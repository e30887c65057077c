// The tree walks of the desktop bridge's AT-SPI half (bridgeAtspiScript.ts), with the semantics
// of the one-shot reader they replaced: what is useful, named containers left out, clipping to
// scroll panes, long lists read from the first row showing, popups of the active window.
export const BRIDGE_ATSPI_WALK_SCRIPT = String.raw`
USEFUL = {'push button', 'toggle button', 'check box', 'radio button', 'menu item', 'check menu item',
    'radio menu item', 'menu', 'label', 'text', 'entry', 'password text', 'spin button', 'combo box',
    'list item', 'page tab', 'link', 'table cell', 'tree item', 'heading', 'static'}
# Named containers are left out: a window's title or a panel's name is no place to click.
CONTAINERS = {'application', 'frame', 'window', 'dialog', 'alert', 'file chooser', 'filler', 'panel',
    'scroll pane', 'viewport', 'layered pane', 'root pane', 'split pane', 'glass pane', 'internal frame',
    'desktop frame', 'option pane', 'page tab list', 'menu bar', 'tool bar', 'status bar', 'scroll bar',
    'separator', 'table', 'tree table', 'list', 'list box', 'tree', 'document frame', 'document web',
    'section', 'form', 'grouping', 'redundant object', 'unknown', 'invalid'}
# A label without a name shows nothing to find (GTK keeps empty ones as spacers).
BARE_LABELS = {'label', 'static', 'heading'}
POPUPS = {'window', 'menu', 'popup menu', 'tool tip'}
# Their children (rows, cells) come in order, so a long one is read from the first row showing
# to the last.
LISTS = {'list', 'list box', 'table', 'tree', 'tree table'}
# What lies outside these is scrolled away or cut off.
CLIPPING = {'viewport', 'scroll pane'}
LIST_GAP = 3
TEXT_ROLES = {'text', 'entry', 'terminal', 'paragraph', 'spin button', 'combo box'}
MAX_CHILDREN = 500
MAX_TEXT = 500

def walk_root(Atspi, root, deadline, max_depth, max_nodes, gtk4=None):
    """gtk4: for a GTK 4 window (bridgeGtk4Script.ts), {'shift': (dx, dy) from reported to screen
    pixels, 'places': its Gtk4Places}."""
    SHOWING, VISIBLE = Atspi.StateType.SHOWING, Atspi.StateType.VISIBLE
    SCREEN = Atspi.CoordType.SCREEN
    out, keys, state = [], [], {'visited': 0, 'truncated': False, 'timedOut': False}
    popups = []  # screen boxes of the GTK 4 popovers read

    def box_of(node):
        # Unmapped widgets report INT_MIN coordinates or no size: no box.
        e = node.get_extents(SCREEN)
        if e.width <= 0 or e.height <= 0 or e.x < -100000 or e.y < -100000:
            return None
        return (e.x, e.y, e.width, e.height)

    def clip(box, bound):
        if bound is None:
            return box
        x0, y0 = max(box[0], bound[0]), max(box[1], bound[1])
        x1, y1 = min(box[0] + box[2], bound[0] + bound[2]), min(box[1] + box[3], bound[1] + bound[3])
        return (x0, y0, x1 - x0, y1 - y0) if x1 > x0 and y1 > y0 else None

    def text_of(node, role):
        if role not in TEXT_ROLES or 'Text' not in node.get_interfaces():
            return None
        count = Atspi.Text.get_character_count(node)
        return Atspi.Text.get_text(node, 0, min(count, MAX_TEXT)) if count > 0 else ''

    def first_visible(node, bound):
        # Rows of a long list scrolled far down: start at the row showing at the top of the
        # window (toolkits unmap the rows around it, so their boxes cannot be searched).
        try:
            row = Atspi.Component.get_accessible_at_point(node, bound[0] + 2, bound[1] + 2, SCREEN)
            return max(0, row.get_index_in_parent() - 1) if row is not None else 0
        except Exception:
            return 0

    def walk(node, depth, bound, shift=None, popup=False):
        """True when the node shows inside the window. shift: GTK 4's (dx, dy) to the screen."""
        if time.monotonic() > deadline:
            state['truncated'] = state['timedOut'] = True
            return False
        if state['visited'] >= max_nodes or depth > max_depth:
            state['truncated'] = True
            return False
        state['visited'] += 1
        try:
            states = node.get_state_set()
            role = node.get_role_name() or ''
            if shift is not None:
                return walk_gtk4(node, depth, bound, shift, popup, states, role)
            if not states.contains(SHOWING):
                # GTK3 leaves a scrolled window's viewport unmapped while the list in it shows.
                if not (role in CLIPPING and states.contains(VISIBLE)):
                    return False
                return any([walk(node.get_child_at_index(i), depth + 1, bound) for i in range(node.get_child_count())])
            full = box_of(node)
            box = clip(full, bound) if full is not None else None
            if full is not None and box is None:
                return False  # scrolled out of the window, and its children with it
            name = (node.get_name() or '').strip()
            wanted = name or (role in USEFUL and role not in BARE_LABELS)
            if box is not None and role not in CONTAINERS and wanted:
                item = {'name': name, 'role': role, 'box': box, 'states': [s.value_nick for s in states.get_states()]}
                text = text_of(node, role)
                if text is not None and text != name:
                    item['text'] = text
                keys.append(node.path)
                out.append(item)
            count = node.get_child_count()
            if box is not None and (depth == 0 or role in CLIPPING):
                bound = box
            elif role == 'menu':
                bound = None  # its items drop down in a popup of their own, maybe past the window
            ordered = role in LISTS and bound is not None
            start = first_visible(node, bound) if ordered and count > MAX_CHILDREN else 0
        except Exception:
            return False  # the app went away or does not answer; keep what the others gave
        shown, misses = False, 0
        for i in range(start, min(count, start + MAX_CHILDREN)):
            try:
                child = node.get_child_at_index(i)
            except Exception:
                continue
            if child is not None and walk(child, depth + 1, bound):
                shown, misses = True, 0
            elif shown and ordered:
                misses += 1
                if misses >= LIST_GAP:
                    return True  # past the last row the window shows
        if count > start + MAX_CHILDREN:
            state['truncated'] = True
        return True

    def walk_gtk4(node, depth, bound, shift, popup, states, role):
        # GTK 4: VISIBLE is as far as it goes; what is not drawn has no size or is not in the tree.
        if not (states.contains(SHOWING) or states.contains(VISIBLE)):
            return False
        raw = node.get_name() or ''
        name = gtk4_plain_name(raw.strip(), role)
        if raw == GTK4_POPOVER_CONTENT:
            placed = gtk4_popover(node, SCREEN, gtk4['places'])
            if placed is None:
                # A popover that cannot be placed covers widgets nobody can tell: the window is left to OCR.
                state['truncated'] = state['unplaced'] = True
                return False
            shift, bound, popup = placed[0], placed[1], True
            popups.append(bound)
        full = gtk4_box(node, SCREEN, shift)
        if full == GTK4_NO_SIZE:
            return False  # not drawn (a folded info bar, a hidden page's child), nor is anything in it
        box = clip(full, bound) if full is not None else None
        if full is not None and box is None:
            return False
        index = None
        if box is not None and role not in CONTAINERS and (name or (role in USEFUL and role not in BARE_LABELS and role != 'menu')):
            item = {'name': name, 'role': role, 'box': box, 'states': [s.value_nick for s in states.get_states()]}
            if popup:
                item['popup'] = True
            text = text_of(node, role)
            if text is not None and text != name:
                item['text'] = text
            index = len(out)
            keys.append(node.path)
            out.append(item)
        if box is not None and depth == 0:
            bound = box
        count = node.get_child_count()
        shown = False
        for i in range(min(count, MAX_CHILDREN)):
            try:
                child = node.get_child_at_index(i)
            except Exception:
                continue
            if child is not None and walk(child, depth + 1, bound, shift, popup):
                shown = True
        if count > MAX_CHILDREN:
            state['truncated'] = True
        if index is not None and role in GTK4_LABELLED:
            item = out[index]
            labels = [e['name'] for e in out[index + 1:] if e['role'] == 'label' and e['name']]
            item['name'] = gtk4_shown_name(item['name'], labels)
        return shown or box is not None

    walk(root, 0, None, gtk4['shift'] if gtk4 else None)
    if gtk4:
        out, keys = ([], []) if state.get('unplaced') else gtk4_uncovered(out, keys, popups)
    paths = {key: i for i, key in enumerate(keys)}
    return {'elements': out, 'paths': paths, 'visited': state['visited'], 'truncated': state['truncated'], 'timedOut': state['timedOut']}

def focused_in_active(Atspi, apps, max_nodes, deadline):
    # An explicit stack: deep trees must not hit the recursion limit, and the walk stops at the focus.
    ACTIVE, FOCUSED, SHOWING, VISIBLE = (Atspi.StateType.ACTIVE, Atspi.StateType.FOCUSED,
        Atspi.StateType.SHOWING, Atspi.StateType.VISIBLE)
    for app in apps:
        try:
            tops = [app.get_child_at_index(i) for i in range(app.get_child_count())]
        except Exception:
            continue
        for top in tops:
            try:
                if top is None or not top.get_state_set().contains(ACTIVE):
                    continue
            except Exception:
                continue
            stack, visited = [top], 0
            while stack and visited < max_nodes and time.monotonic() < deadline:
                node = stack.pop()
                visited += 1
                try:
                    states = node.get_state_set()
                    if node is not top and states.contains(FOCUSED):
                        return {'name': (node.get_name() or '').strip(), 'role': node.get_role_name() or '',
                            'states': [s.value_nick for s in states.get_states()]}
                    if node is not top and not (states.contains(SHOWING) or states.contains(VISIBLE)):
                        continue
                    count = min(node.get_child_count(), MAX_CHILDREN)
                    stack.extend(node.get_child_at_index(i) for i in reversed(range(count)))
                except Exception:
                    continue
            return None
    return None
`;
