"""Ground truth for the real-app tests: every showing, named element of one application's
showing top-level windows (its main window, an open menu, a dialog), with its screen box, read
from AT-SPI independently of the product's adapter. Prints one JSON object.

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
