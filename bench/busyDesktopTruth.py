"""Ground truth the shared reader (test/desktop/support/realApps/atspiTruth.py) does not give
yet, for the busy-desktop bench only, read from AT-SPI independently of the product's walk:

  keys PID DX DY    GTK 4 (gnome-calculator): the label each drawn push button shows. GTK 4
                    sets VISIBLE but never SHOWING and reports boxes relative to its window;
                    DX, DY is the window's top-left on screen (the caller measures it).
  page PID          Firefox: the named links, buttons and headings of the page it shows (inside
                    its showing 'document web'), boxes on screen.
  frame PID         GTK 4: the size of its top-level frame (its window less the shadow margin).
  words PID         LibreOffice Writer: the words of the document's paragraphs, each with the
                    box of its characters on screen (a person points at a word of the text).
                    LibreOffice 7.4's GTK 3 plugin places what VCL draws (the root pane and all
                    in it) as if the root pane began where its GTK parent does minus the menu
                    bar: boxes there are too high by that much. The shift is measured (the
                    GTK parent's box less the root pane's) and undone.

Prints one JSON object: {"ok": true, "elements": [{"name", "role", "box": [x, y, w, h]}]}.
"""
import json
import re
import sys

MAX_NODES = 4000
WORD = re.compile(r'[A-Za-z][A-Za-z]{2,}')


def app_of(Atspi, pid):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            continue
    raise RuntimeError('no AT-SPI application with pid %d' % pid)


def children(node):
    for i in range(min(node.get_child_count(), 300)):
        child = node.get_child_at_index(i)
        if child is not None:
            yield child


def gtk4_keys(Atspi, app, dx, dy):
    VISIBLE = Atspi.StateType.VISIBLE
    out, seen = [], [0]

    def visible(node):
        return node.get_state_set().contains(VISIBLE)

    def walk(node, clip):
        seen[0] += 1
        if seen[0] > MAX_NODES or not visible(node):
            return
        e = node.get_extents(Atspi.CoordType.WINDOW)
        if e.width <= 0 or e.height <= 0:
            return  # an unmapped page of a stack, a closed popover
        box = [e.x + dx, e.y + dy, e.width, e.height]
        if clip is not None and not inside(box, clip):
            return
        if node.get_role_name() == 'push button':
            shown = [c for c in children(node) if c.get_role_name() == 'label' and visible(c) and (c.get_name() or '').strip()]
            if len(shown) == 1:
                out.append({'name': shown[0].get_name().strip(), 'role': 'push button', 'box': box})
            return
        for child in children(node):
            walk(child, clip if clip is not None else box)

    for top in children(app):
        if visible(top):
            walk(top, None)
    return out


def inside(box, clip):
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
    return clip[0] <= cx < clip[0] + clip[2] and clip[1] <= cy < clip[1] + clip[3]


def writer_words(Atspi, app):
    SHOWING = Atspi.StateType.SHOWING
    SCREEN = Atspi.CoordType.SCREEN
    out, seen = [], [0]

    shift = [0, 0]

    def walk(node, clip, parent=None):
        seen[0] += 1
        if seen[0] > MAX_NODES or not node.get_state_set().contains(SHOWING):
            return
        role = node.get_role_name()
        if role == 'root pane' and parent is not None:
            mine, theirs = node.get_extents(SCREEN), parent.get_extents(SCREEN)
            shift[0], shift[1] = theirs.x - mine.x, theirs.y - mine.y
        if role == 'document text':
            e = node.get_extents(SCREEN)
            clip = [e.x + shift[0], e.y + shift[1], e.width, e.height]
        if role == 'paragraph' and clip is not None:
            count = Atspi.Text.get_character_count(node)
            text = Atspi.Text.get_text(node, 0, min(count, 2000))
            for match in WORD.finditer(text):
                e = Atspi.Text.get_range_extents(node, match.start(), match.end(), SCREEN)
                box = [e.x + shift[0], e.y + shift[1], e.width, e.height]
                if e.width > 0 and e.height > 0 and inside(box, clip):
                    out.append({'name': match.group(0), 'role': 'word', 'box': box})
            return
        for child in children(node):
            walk(child, clip, node)

    for top in children(app):
        walk(top, None)
    return out


PAGE_ROLES = {'link', 'push button', 'heading', 'check box', 'radio button', 'page tab', 'label', 'table cell'}


def page_labels(Atspi, app):
    SHOWING = Atspi.StateType.SHOWING
    SCREEN = Atspi.CoordType.SCREEN
    out, seen = [], [0]

    def walk(node, clip):
        seen[0] += 1
        if seen[0] > MAX_NODES or not node.get_state_set().contains(SHOWING):
            return
        role = node.get_role_name()
        e = node.get_extents(SCREEN)
        box = [e.x, e.y, e.width, e.height]
        if role == 'document web':
            clip = box
        elif clip is not None and role in PAGE_ROLES and (node.get_name() or '').strip() and e.width > 0 and e.height > 0 and inside(box, clip):
            out.append({'name': node.get_name().strip(), 'role': role, 'box': box})
        for child in children(node):
            walk(child, clip)

    for top in children(app):
        walk(top, None)
    return out


def main():
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi
    what, pid = sys.argv[1], int(sys.argv[2])
    app = app_of(Atspi, pid)
    if what == 'keys':
        return gtk4_keys(Atspi, app, int(sys.argv[3]), int(sys.argv[4]))
    if what == 'page':
        return page_labels(Atspi, app)
    if what == 'frame':
        tops = [t for t in children(app) if t.get_state_set().contains(Atspi.StateType.VISIBLE)]
        e = tops[0].get_extents(Atspi.CoordType.WINDOW) if tops else None
        return [{'name': tops[0].get_name() or '', 'role': 'frame', 'box': [0, 0, e.width, e.height]}] if e else []
    if what == 'words':
        return writer_words(Atspi, app)
    raise RuntimeError('unknown request %r' % what)


if __name__ == '__main__':
    try:
        result = {'ok': True, 'elements': main()}
    except Exception as e:  # reported, not raised: the caller shows it with the app's name
        result = {'ok': False, 'error': '%s: %s' % (type(e).__name__, e)}
    print(json.dumps(result))
