// The tree walks of the desktop bridge's AT-SPI half (bridgeAtspiScript.ts), with the semantics
// of the one-shot reader they replaced: what is useful, named containers left out, long lists
// read from the first row showing, popups of the active window. An element counts only when it
// is drawn: inside every ancestor's box (a 0-size ancestor hides its subtree, e.g. LibreOffice's
// hidden duplicate menu bar), except what drops down out of a menu or combo box. Reads stay
// bounded and safe for the app: no call into a defunct node, no walk through a huge table that
// makes its cells on demand (Calc's 2^31 cells: the filled cells showing are read through its
// Table interface instead), a capped number of Text reads. Each node visited leaves a record of
// what it gave and where it was walked from, so that a change in one part of a window walks
// that part again alone (bridgeAtspiPartsScript.ts), and of its name: each element carries its
// named ancestors, laid out from the records with no call to the app.
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
# Kept for their text alone: no name, and no place to click as a whole (a word in them is).
TEXT_ONLY = {'paragraph'}
MAX_CHILDREN = 500
MAX_TEXT = 500
# Text reads per walk: each makes the app build a string, and an editor's text is OCR's to read.
MAX_TEXT_READS = 200
# What drops down out of these is drawn past their box (a menu's items, a combo box's list).
DROPS = {'menu', 'combo box', 'menu item', 'popup menu'}
# These are popups of their own, drawn over their parent rather than inside it.
POPUP_CHILDREN = {'menu', 'popup menu', 'window', 'tool tip'}
# An element's named ancestors kept (the nearest), and their names' length: as a routine keeps them.
MAX_ANCESTORS = 4
MAX_ANCESTOR_NAME = 300

def is_office(root):
    # LibreOffice's page tabs keep the clipping they had (its VCL boxes are corrected apart).
    try:
        app = root.get_application()
        return app is not None and app.get_name() == 'soffice'
    except Exception:
        return False

def popup_layers(role, box, layers, depth):
    # The boxes of the open popups an element is drawn in, outermost first: a top-level popup
    # window (GTK menus), or a showing popup menu inside a window's tree (a Qt menu is a child
    # of its menu bar item, not a top-level): what lies under them and is not in them is covered.
    if box is not None and (role in POPUP_CHILDREN and role != 'menu' or (depth == 0 and role in POPUPS)):
        return list(layers) + [box]
    return layers

def raw_box(Atspi, node):
    """(x, y, width, height) as the app reports it; None for unmapped (INT_MIN) coordinates."""
    e = node.get_extents(Atspi.CoordType.SCREEN)
    if e.x < -100000 or e.y < -100000 or e.width < 0 or e.height < 0:
        return None  # GTK 3 gives a notebook page -1 x -1: no box, not an empty one
    return (e.x, e.y, e.width, e.height)

def vcl_shift(role, raw, parent_raw, shift):
    """LibreOffice's GTK 3 plugin reports what VCL draws itself (all under its 'root pane':
    toolbars, sheet tabs, cells) displaced by the native menu bar's height, while the GTK panel
    holding the root pane, and the GTK widgets embedded in VCL (combo boxes, the formula bar),
    report where they are drawn. The root pane has its panel's size: the panel's place is the
    true one. An embedded GTK widget has its VCL parent's size at the corrected place: there the
    shift ends. Returns the (dx, dy) to add to this node's and its subtree's boxes."""
    if raw is None or parent_raw is None or abs(raw[2] - parent_raw[2]) > 2 or abs(raw[3] - parent_raw[3]) > 2:
        return shift
    if shift == (0, 0) and role == 'root pane':
        return (parent_raw[0] - raw[0], parent_raw[1] - raw[1])
    if shift != (0, 0) and (raw[0], raw[1]) == (parent_raw[0] + shift[0], parent_raw[1] + shift[1]):
        return (0, 0)
    return shift

def clip(box, bound):
    # The part of box inside bound (None: no bound); None when nothing is left.
    if bound is None:
        return box
    x0, y0 = max(box[0], bound[0]), max(box[1], bound[1])
    x1, y1 = min(box[0] + box[2], bound[0] + bound[2]), min(box[1] + box[3], bound[1] + bound[3])
    return (x0, y0, x1 - x0, y1 - y0) if x1 > x0 and y1 > y0 else None

def drawn_box(raw, bound, role):
    """(box, hidden): a node's box (corrected) clipped to its ancestors' (bound). hidden: the node
    and its subtree are not drawn: cut away by an ancestor, or 0 px wide or high where it is."""
    if raw is None:
        return None, False  # unmapped coordinates: no box of its own, its children may have one
    if raw[2] <= 0 or raw[3] <= 0:
        # A 0-size node at real coordinates draws nothing, and nothing inside it; a menu's items
        # drop down in a popup of their own.
        return None, role not in DROPS
    if role in POPUP_CHILDREN:
        return raw, False
    box = clip(raw, bound)
    return box, box is None

def walk_root(Atspi, root, deadline, max_depth, max_nodes, gtk4=None, part=None, office=None):
    """gtk4: for a GTK 4 window (bridgeGtk4Script.ts), {'shift': (dx, dy) from reported to screen
    pixels, 'places': its Gtk4Places}. part: the record of a node of an earlier walk of a window
    of another toolkit, walked again alone from where it was (its ancestors' boxes, its depth):
    the answer's 'top' is its new record (bridgeAtspiPartsScript.ts splices it in)."""
    SHOWING, VISIBLE = Atspi.StateType.SHOWING, Atspi.StateType.VISIBLE
    SCREEN = Atspi.CoordType.SCREEN
    state = {'visited': 0, 'truncated': False, 'timedOut': False, 'texts': 0, 'top': None}
    recs = {}  # path -> record of each node visited
    popups = []  # screen boxes of the GTK 4 popovers read
    office = is_office(root) if office is None else office

    def record(node, depth, up, ctx):
        """What the walk found at a node (its elements, its text nodes, its children's records) and
        where it was walked from (ctx), so that a change there walks it again alone. closed: what
        lies below it does not show (it is hidden, cut off or gone). ordered: a list read from the
        first row showing, whose children are walked again with it."""
        rec = {'node': node, 'path': node.path, 'depth': depth, 'ctx': ctx, 'own': [], 'texts': [], 'kids': [], 'up': up,
            'closed': False, 'ordered': False}
        if up is None:
            state['top'] = rec
        else:
            up['kids'].append(rec)
        recs[rec['path']] = rec
        return rec

    def read_text(node, item=None, view=None):
        """(text, offset of its first character): at most MAX_TEXT_READS per walk, None past
        that or without a Text interface. The length is asked first: LibreOffice answers nothing
        when asked past the end. A long text is read where it shows (view: the element's box as
        the toolkit reports it, clipped). The item is told when its text is only part of what
        it shows (its silence then proves nothing)."""
        if state['texts'] >= MAX_TEXT_READS:
            if item is not None:
                item['textCut'] = True
            return None, 0
        if 'Text' not in node.get_interfaces():
            return None, 0
        state['texts'] += 1
        count = Atspi.Text.get_character_count(node)
        if count <= MAX_TEXT:
            return (Atspi.Text.get_text(node, 0, count) if count > 0 else ''), 0
        shown = None
        if view is not None:
            try:
                shown = visible_text(Atspi, node, view, count)
            except Exception:
                shown = None
        if shown is not None:
            return shown
        if item is not None:
            item['textCut'] = True
        return Atspi.Text.get_text(node, 0, MAX_TEXT), 0

    def capped_text(node):
        return read_text(node)[0]

    def text_of(rec, node, role, item, box=None, shift=(0, 0)):
        """The text of a text element, kept (with its node) for text_boxes when it has any."""
        if role not in TEXT_ROLES:
            return None
        view = None if box is None else (box[0] - shift[0], box[1] - shift[1], box[2], box[3])
        text, base = read_text(node, item, view)
        if text and box is not None:
            rec['texts'].append({'node': node, 'text': text, 'base': base, 'box': box, 'shift': shift})
        return text

    def first_visible(node, bound):
        # Rows of a long list scrolled far down: start at the row showing at the top of the
        # window (toolkits unmap the rows around it, so their boxes cannot be searched).
        try:
            row = Atspi.Component.get_accessible_at_point(node, bound[0] + 2, bound[1] + 2, SCREEN)
            return max(0, row.get_index_in_parent() - 1) if row is not None else 0
        except Exception:
            return 0

    def cell_text(cell):
        return (capped_text(cell) or '').strip()

    def shown_text(node, role, name):
        # A label without a name shows its text (LibreOffice's status bar fields).
        if name or role not in BARE_LABELS:
            return name
        return (capped_text(node) or '').strip()

    def walk(node, depth, bound, shift=None, popup=False, parent_raw=None, vcl=(0, 0), layers=(), up=None):
        """True when the node shows inside the window. shift: GTK 4's (dx, dy) to the screen;
        vcl: LibreOffice's (see vcl_shift); layers: the boxes of the open popups it is in; up:
        the parent's record."""
        if time.monotonic() > deadline:
            state['truncated'] = state['timedOut'] = True
            return False
        if state['visited'] >= max_nodes or depth > max_depth:
            state['truncated'] = True
            return False
        state['visited'] += 1
        rec = record(node, depth, up, (bound, parent_raw, vcl, layers))
        try:
            states = node.get_state_set()
            role = rec['role'] = node.get_role_name() or ''
            if states.contains(Atspi.StateType.DEFUNCT):
                rec['closed'] = True
                return False  # gone: no call into it
            if shift is not None:
                return walk_gtk4(rec, node, depth, bound, shift, popup, states, role)
            if not states.contains(SHOWING):
                # GTK3 leaves a scrolled window's viewport unmapped while the list in it shows.
                if not (role in CLIPPING and states.contains(VISIBLE)):
                    rec['closed'] = True
                    return False
                return any([walk(node.get_child_at_index(i), depth + 1, bound, None, False, None, vcl, layers, rec) for i in range(node.get_child_count())])
            raw = raw_box(Atspi, node)
            vcl = vcl_shift(role, raw, parent_raw, vcl)
            moved = raw if raw is None or vcl == (0, 0) else (raw[0] + vcl[0], raw[1] + vcl[1], raw[2], raw[3])
            box, hidden = drawn_box(moved, bound, role)
            if hidden:
                rec['closed'] = True
                return False  # cut off, scrolled away or 0 px: its children with it
            layers = popup_layers(role, box, layers, depth)
            # Kept for the elements under it, which name it among their ancestors (lay_out).
            name = rec['name'] = shown_text(node, role, (node.get_name() or '').strip())
            # A paragraph (of a document, a web page) counts for the text it shows.
            wanted = name or (role in USEFUL and role not in BARE_LABELS) or role in TEXT_ONLY
            item = None
            if box is not None and role not in CONTAINERS and wanted:
                item = {'name': name, 'role': role, 'box': box, 'states': [s.value_nick for s in states.get_states()], 'ref': ref_of(node.path)}
                text = text_of(rec, node, role, item, box, vcl)
                if text is not None and text != name:
                    item['text'] = text
                if role in TEXT_ONLY and not name and not (text or '').strip():
                    item = None  # an empty paragraph: nothing to find there
            if item is not None:
                if layers:
                    item['popups'] = list(layers)
                rec['own'].append((node.path, item))
            count = node.get_child_count()
            if huge_managed(Atspi, states, count):
                for cell_box, text in visible_cells(Atspi, node, box, vcl, cell_text):
                    # No events of its own reach a cell read this way: its table's come.
                    rec['own'].append(('%s#%d' % (node.path, len(rec['own'])), {'name': text, 'role': 'table cell', 'box': cell_box, 'states': []}))
                return True
            if role in DROPS:
                bound = None  # its items drop down in a popup of their own, maybe past the window
            elif role == 'page tab' and not office:
                pass  # its box is the tab's title; its page (a GTK 3 notebook's) lies outside it
            elif box is not None:
                bound = box
            ordered = rec['ordered'] = role in LISTS and bound is not None
            start = first_visible(node, bound) if ordered and count > MAX_CHILDREN else 0
        except Exception:
            return False  # the app went away or does not answer; keep what the others gave
        shown, misses = False, 0
        for i in range(start, min(count, start + MAX_CHILDREN)):
            try:
                child = node.get_child_at_index(i)
            except Exception:
                continue
            if child is not None and walk(child, depth + 1, bound, None, False, raw, vcl, layers, rec):
                shown, misses = True, 0
            elif shown and ordered:
                misses += 1
                if misses >= LIST_GAP:
                    return True  # past the last row the window shows
        if count > start + MAX_CHILDREN:
            state['truncated'] = True
        return True

    def walk_gtk4(rec, node, depth, bound, shift, popup, states, role):
        # GTK 4: VISIBLE is as far as it goes; what is not drawn has no size or is not in the tree.
        if not (states.contains(SHOWING) or states.contains(VISIBLE)):
            return False
        raw = node.get_name() or ''
        name = rec['name'] = gtk4_plain_name(raw.strip(), role)
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
        item = None
        if box is not None and role not in CONTAINERS and (name or (role in USEFUL and role not in BARE_LABELS and role != 'menu')):
            item = {'name': name, 'role': role, 'box': box, 'states': [s.value_nick for s in states.get_states()], 'ref': ref_of(node.path)}
            if popup:
                item['popup'] = True
            text = text_of(rec, node, role, item)
            if text is not None and text != name:
                item['text'] = text
            rec['own'].append((node.path, item))
        if box is not None and depth == 0:
            bound = box
        count = node.get_child_count()
        shown = False
        for i in range(min(count, MAX_CHILDREN)):
            try:
                child = node.get_child_at_index(i)
            except Exception:
                continue
            if child is not None and walk(child, depth + 1, bound, shift, popup, up=rec):
                shown = True
        if count > MAX_CHILDREN:
            state['truncated'] = True
        if item is not None and role in GTK4_LABELLED:
            out = []
            for kid in rec['kids']:
                flatten(kid, out, [], [])
            labels = [e['name'] for e in out if e['role'] == 'label' and e['name']]
            item['name'] = rec['name'] = gtk4_shown_name(item['name'], labels)
        return shown or box is not None

    if part is None:
        walk(root, 0, None, gtk4['shift'] if gtk4 else None)
    else:
        bound, parent_raw, vcl, layers = part['ctx']
        walk(part['node'], part['depth'], bound, parent_raw=parent_raw, vcl=vcl, layers=layers)
    found = {'top': state['top'], 'recs': recs, 'visited': state['visited'], 'truncated': state['truncated'],
        'timedOut': state['timedOut'], 'office': office, 'parts': not gtk4 and not state['truncated']}
    if part is None:
        keys = lay_out(found)
        if gtk4:
            found['elements'], keys = ([], []) if state.get('unplaced') else gtk4_uncovered(found['elements'], keys, popups)
            found['paths'] = {key: i for i, key in enumerate(keys)}
    return found

def flatten(rec, out, keys, texts, lineage=None):
    """The elements (and their keys, and text nodes) under a record, in the order walked.
    lineage: the named ancestors above it (a tuple), to write each element's 'ancestors' from
    the names its records keep (no call to the app); None leaves them as they are."""
    stack = [(rec, lineage)] if rec is not None else []
    while stack:
        r, above = stack.pop()
        here = above
        if above is not None and r['depth'] > 0 and r.get('name'):
            # The window itself is left out: its name is the element's window.
            here = (above + ({'role': r['role'], 'name': r['name'][:MAX_ANCESTOR_NAME]},))[-MAX_ANCESTORS:]
        for key, item in r['own']:
            if above is not None:
                # A cell read through its table's interface lies under the table's node.
                mine = above if key == r['path'] else here
                if mine:
                    item['ancestors'] = mine
                else:
                    item.pop('ancestors', None)
            keys.append(key)
            out.append(item)
        texts.extend(r['texts'])
        stack.extend((kid, here) for kid in reversed(r['kids']))

def lay_out(walk):
    """A walk's elements (their ancestors written anew: a part walked again or a node renamed
    changes them), their places by key, and its text nodes, from its records; the keys."""
    out, keys, texts = [], [], []
    flatten(walk['top'], out, keys, texts, ())
    walk['elements'], walk['paths'], walk['textNodes'] = out, {key: i for i, key in enumerate(keys)}, texts
    return keys
`;
