// UI Automation names its control types (ControlType.ProgrammaticName, "ControlType.Button");
// the rest of GAI reads AT-SPI's lower-case role words. The map makes a Windows button a
// `push button` for the same rules (what is clickable, what toggles, what is a field).

const ROLES: Readonly<Record<string, string>> = {
  Button: 'push button',
  Calendar: 'calendar',
  CheckBox: 'check box',
  ComboBox: 'combo box',
  Custom: 'filler',
  DataGrid: 'table',
  DataItem: 'table cell',
  Document: 'document text',
  Edit: 'text',
  Group: 'panel',
  Header: 'header',
  HeaderItem: 'column header',
  Hyperlink: 'link',
  Image: 'image',
  List: 'list',
  ListItem: 'list item',
  Menu: 'menu',
  MenuBar: 'menu bar',
  MenuItem: 'menu item',
  Pane: 'panel',
  ProgressBar: 'progress bar',
  RadioButton: 'radio button',
  ScrollBar: 'scroll bar',
  Separator: 'separator',
  Slider: 'slider',
  Spinner: 'spin button',
  SplitButton: 'push button',
  StatusBar: 'status bar',
  Tab: 'page tab list',
  TabItem: 'page tab',
  Table: 'table',
  Text: 'label',
  Thumb: 'filler',
  TitleBar: 'title bar',
  ToolBar: 'tool bar',
  ToolTip: 'tool tip',
  Tree: 'tree',
  TreeItem: 'tree item',
  Window: 'frame',
  AppBar: 'tool bar',
  SemanticZoom: 'panel',
};

/**
 * The AT-SPI role word for a UIA control type ("ControlType.Button" or "Button"). A password
 * edit is `password text` (what isSecretRole masks); a menu item that toggles is a `check menu item`.
 */
export function uiaRole(controlType: string, flags: { password?: boolean; toggles?: boolean } = {}): string {
  const type = controlType.replace(/^ControlType\./, '');
  if (type === 'Edit' && flags.password) return 'password text';
  if (type === 'MenuItem' && flags.toggles) return 'check menu item';
  if (type === 'Button' && flags.toggles) return 'toggle button';
  return ROLES[type] ?? type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
