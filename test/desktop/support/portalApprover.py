#!/usr/bin/env python3
"""The person at GNOME's screen-sharing dialog (xdg-desktop-portal-gnome's "Remote desktop"), for
the portal tests: `allow` picks the first monitor, ticks "Allow remote interaction" and presses
Share; `decline` presses Cancel. Done through the dialog's accessibility tree, as an assistive
technology would. Prints "answered <how>" once it did, "no dialog" when none came in time."""
import sys, time
import gi
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi

how = sys.argv[1]
deadline = time.time() + float(sys.argv[2] if len(sys.argv) > 2 else 60)

def nodes(root):
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        try:
            out.append(node)
            stack.extend(node.get_child_at_index(i) for i in range(node.get_child_count()))
        except Exception:
            pass
    return out

def states(node):
    return {Atspi.StateType(s).value_nick for s in node.get_state_set().get_states()}

def dialog():
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        try:
            if app.get_name() == 'xdg-desktop-portal-gnome':
                found = nodes(app)
                if any(n.get_role_name() == 'push button' for n in found):
                    return found
        except Exception:
            pass
    return None

while time.time() < deadline:
    found = dialog()
    if not found:
        time.sleep(0.2)
        continue
    buttons = {(n.get_name() or '').split(' ')[-1]: n for n in found if n.get_role_name() == 'push button'}
    if how == 'decline':
        Atspi.Action.do_action(buttons['Cancel'], 0)
    else:
        for listing in [n for n in found if n.get_role_name() == 'list']:
            # The monitors' list; not the list that holds the "Allow remote interaction" switch.
            rows = nodes(listing)
            if listing.get_child_count() and listing.get_child_at_index(0).get_role_name() == 'list item' and not any(n.get_role_name() == 'check box' for n in rows):
                Atspi.Selection.select_child(listing, 0)
        for box in [n for n in found if n.get_role_name() == 'check box' and 'checked' not in states(n)]:
            Atspi.Action.do_action(box, 0)
        time.sleep(0.3)
        Atspi.Action.do_action(buttons['Share'], 0)
    print('answered ' + how, flush=True)
    sys.exit(0)
print('no dialog', flush=True)
