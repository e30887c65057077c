// Pointer-free actions of the desktop bridge's AT-SPI half: an element of a kept walk pressed
// through its Action interface, and text put into the focused field through EditableText, with
// no pointer or key event. Where no input can be sent (a Wayland desktop GAI cannot drive), or where
// the person's pointer must stay where it is, a button found in the tree is still pressed.
export const BRIDGE_ATSPI_ACT_SCRIPT = String.raw`
# Elements are named to Node by their object path less this common prefix (shorter answers).
REF_PREFIX = '/org/a11y/atspi/accessible/'
# The actions that press a control, by preference, as toolkits name them (Qt capitalizes them).
PRESS_ACTIONS = ('click', 'press', 'activate', 'jump', 'toggle', 'open', 'showmenu')

def ref_of(path):
    return path[len(REF_PREFIX):] if path.startswith(REF_PREFIX) else path

def held_node(tree, bus, ref):
    """The node of a kept walk (the last reads') named by ref, None when no kept walk has it."""
    path = ref if ref.startswith('/') else REF_PREFIX + ref
    for key, entry in list(tree.cache.items()):
        rec = entry.get('recs', {}).get(path) if key[0] == bus else None
        if rec is not None:
            return rec['node']
    return None

def act(tree, bus, ref, kind):
    """Presses the element (kind 'press'); the name of the action done. Kind 'check' only names
    the action a press would do, so an approval can say the pointer stays before it is asked."""
    Atspi = tree.Atspi
    tree.drain()
    node = held_node(tree, bus, ref)
    if node is None:
        raise RuntimeError('the element is no longer in the accessibility tree GAI read; read the screen again')
    states = node.get_state_set()
    if states.contains(Atspi.StateType.DEFUNCT):
        raise RuntimeError('the element is gone from its window')
    if not states.contains(Atspi.StateType.SENSITIVE) and not states.contains(Atspi.StateType.ENABLED):
        raise RuntimeError('the element is disabled')
    interfaces = node.get_interfaces()
    if kind in ('press', 'check'):
        if 'Action' not in interfaces:
            raise RuntimeError('its toolkit offers no action for it (%s)' % node.get_role_name())
        names = [(Atspi.Action.get_action_name(node, i) or '').lower() for i in range(Atspi.Action.get_n_actions(node))]
        wanted = [name for name in PRESS_ACTIONS if name in names]
        if not wanted:
            raise RuntimeError('none of its actions presses it (%s)' % ', '.join(names or ['none']))
        if kind == 'check':
            return {'action': wanted[0]}
        if not Atspi.Action.do_action(node, names.index(wanted[0])):
            raise RuntimeError('its toolkit refused the action "%s"' % wanted[0])
        return {'action': wanted[0]}
    raise RuntimeError('unknown action %r' % kind)

def insert_text(tree, text, max_nodes, deadline):
    """Puts text at the caret of the field that has the keyboard focus in the active window, and
    reads it back there. The number of characters the field now holds."""
    Atspi = tree.Atspi
    tree.drain()
    node = focused_node(Atspi, tree.apps(), max_nodes, deadline)
    if node is None:
        raise RuntimeError('nothing in the active window has the keyboard focus')
    role = node.get_role_name() or ''
    interfaces = node.get_interfaces()
    if 'EditableText' not in interfaces or 'Text' not in interfaces or not node.get_state_set().contains(Atspi.StateType.EDITABLE):
        raise RuntimeError('the focused element (%s) is not an editable text field' % role)
    count = Atspi.Text.get_character_count(node)
    caret = Atspi.Text.get_caret_offset(node)
    at = caret if 0 <= caret <= count else count
    # The toolkits take the length in bytes of UTF-8 (GTK), or the whole string (Qt, Chromium).
    if not Atspi.EditableText.insert_text(node, at, text, len(text.encode('utf-8'))):
        raise RuntimeError('its toolkit refused the text (%s)' % role)
    now = Atspi.Text.get_character_count(node)
    # A password field shows no text back: its length says whether it took all of it.
    taken = now == count + len(text) if role == 'password text' else Atspi.Text.get_text(node, at, at + len(text)) == text
    if not taken:
        raise RuntimeError('the field did not take the text as given (%s)' % role)
    try:
        Atspi.Text.set_caret_offset(node, at + len(text))
    except Exception:
        pass  # the text is in; where the caret stands is the toolkit's
    return {'length': now}
`;
