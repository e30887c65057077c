// The Accessibility API names roles AXButton, AXCheckBox...; the rest of GAI reads AT-SPI's
// lower-case role words (what is clickable, what toggles, what is a field, what is secret).

const ROLES: Readonly<Record<string, string>> = {
  AXApplication: 'application',
  AXBrowser: 'tree table',
  AXButton: 'push button',
  AXCell: 'table cell',
  AXCheckBox: 'check box',
  AXColumn: 'column',
  AXComboBox: 'combo box',
  AXDisclosureTriangle: 'toggle button',
  AXGroup: 'panel',
  AXHeading: 'heading',
  AXImage: 'image',
  AXIncrementor: 'spin button',
  AXLink: 'link',
  AXList: 'list',
  AXMenu: 'menu',
  AXMenuBar: 'menu bar',
  AXMenuBarItem: 'menu',
  AXMenuButton: 'push button',
  AXMenuItem: 'menu item',
  AXOutline: 'tree',
  AXPopUpButton: 'combo box',
  AXProgressIndicator: 'progress bar',
  AXRadioButton: 'radio button',
  AXRadioGroup: 'panel',
  AXRow: 'list item',
  AXScrollArea: 'scroll pane',
  AXScrollBar: 'scroll bar',
  AXSearchField: 'text',
  AXSecureTextField: 'password text',
  AXSheet: 'dialog',
  AXSlider: 'slider',
  AXSplitGroup: 'split pane',
  AXStaticText: 'label',
  AXTabGroup: 'page tab list',
  AXTable: 'table',
  AXTextArea: 'text',
  AXTextField: 'text',
  AXToolbar: 'tool bar',
  AXWebArea: 'document web',
  AXWindow: 'frame',
};

/** AT-SPI's role words for an AX role (and subrole), e.g. AXButton → `push button`. */
export function macRole(role: string, subrole = ''): string {
  if (subrole === 'AXTabButton') return 'page tab';
  if (subrole === 'AXSecureTextField' || role === 'AXSecureTextField') return 'password text';
  if (subrole === 'AXSearchField') return 'text';
  if (role === 'AXCheckBox' && subrole === 'AXSwitch') return 'switch';
  if (role === 'AXCheckBox' && subrole === 'AXToggle') return 'toggle button';
  if (subrole === 'AXDialog' || subrole === 'AXSystemDialog') return 'dialog';
  const known = ROLES[role];
  if (known) return known;
  // Unknown roles keep their words: AXDateField → `date field`.
  return role.replace(/^AX/, '').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() || 'unknown';
}

/** States the AX attributes imply beyond enabled/focused/selected: a check box's value 1 is checked. */
export function macStates(role: string, states: readonly string[], checked: number | undefined): string[] {
  const out = [...states, 'showing', 'visible'];
  const toggles = role === 'check box' || role === 'radio button' || role === 'switch' || role === 'toggle button' || role === 'page tab';
  if (toggles && checked === 1) out.push('checked');
  if (toggles && checked === 2) out.push('indeterminate');
  if (role === 'text' || role === 'password text') out.push('editable');
  return out;
}
