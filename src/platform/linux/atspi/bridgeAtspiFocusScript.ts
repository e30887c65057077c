// The element that has the keyboard focus in the active window, for the desktop bridge's AT-SPI
// half (bridgeAtspiScript.ts answers 'focused' with it; bridgeAtspiActScript.ts types into it).
// Apart from the tree walks (bridgeAtspiWalkScript.ts): it stops at the focus and keeps nothing.
export const BRIDGE_ATSPI_FOCUS_SCRIPT = String.raw`
def focused_in_active(Atspi, apps, max_nodes, deadline):
    node = focused_node(Atspi, apps, max_nodes, deadline)
    if node is None:
        return None
    states = node.get_state_set()
    return {'name': (node.get_name() or '').strip(), 'role': node.get_role_name() or '', 'states': [s.value_nick for s in states.get_states()]}

def focused_node(Atspi, apps, max_nodes, deadline):
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
                        return node
                    if node is not top and not (states.contains(SHOWING) or states.contains(VISIBLE)):
                        continue
                    if states.contains(Atspi.StateType.DEFUNCT):
                        continue
                    count = node.get_child_count()
                    if huge_managed(Atspi, states, count):
                        continue
                    count = min(count, MAX_CHILDREN)
                    stack.extend(node.get_child_at_index(i) for i in reversed(range(count)))
                except Exception:
                    continue
            return None
    return None
`;
