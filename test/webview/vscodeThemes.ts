// VS Code's built-in themes as the --vscode-* variables a webview gets: the colours of the theme
// files shipped with the VS Code of the test host (extensions/theme-defaults/themes/*.json,
// `include` chains resolved), over the colour registry's defaults for the ids our CSS uses (the
// HC theme files set almost nothing themselves). Ids map to names as VS Code does: dots → dashes.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from './browserHarness';

export type ThemeKind = 'light' | 'dark' | 'hcDark' | 'hcLight';

export interface VscodeTheme {
  /** The name used for screenshots: chat-<slug>.png. */
  slug: string;
  label: string;
  kind: ThemeKind;
  /** The body class VS Code sets on a webview. */
  bodyClass: string;
  /** --vscode-* name → CSS colour value (plus the font variables). */
  vars: Record<string, string>;
}

/**
 * Defaults of VS Code 1.139's colour registry (registerColor calls in the host's workbench.js)
 * for the ids the chat and brain CSS use, resolved to values: a webview gets these wherever the
 * theme file is silent. `null` in the registry (no colour) is left out.
 */
const REGISTRY: Record<ThemeKind, Record<string, string>> = {
  light: {
    foreground: '#616161', descriptionForeground: '#717171', errorForeground: '#A1260D', focusBorder: '#0090F1',
    'textCodeBlock.background': '#dcdcdc66', 'textBlockQuote.background': '#f2f2f2', 'textBlockQuote.border': '#007acc80',
    'textLink.foreground': '#006AB1', 'textLink.activeForeground': '#006AB1', 'textPreformat.foreground': '#A31515',
    'textPreformat.background': '#0000001A', 'panel.border': '#80808059', 'sideBar.background': '#F3F3F3',
    'editor.background': '#ffffff', 'input.background': '#ffffff', 'button.background': '#007ACC', 'button.foreground': '#ffffff',
    'charts.green': '#388A34', 'charts.red': '#E51400', 'list.activeSelectionBackground': '#0060C0', 'list.activeSelectionForeground': '#ffffff',
    'list.inactiveSelectionBackground': '#E4E6F1',
    'badge.background': '#C4C4C4', 'badge.foreground': '#333333', 'editor.foreground': '#333333', 'icon.foreground': '#424242', 'editorWarning.foreground': '#BF8803', 'editorWidget.background': '#F3F3F3',
  },
  dark: {
    foreground: '#CCCCCC', descriptionForeground: '#ccccccb3', errorForeground: '#F48771', focusBorder: '#007FD4',
    'textCodeBlock.background': '#0a0a0a66', 'textBlockQuote.background': '#222222', 'textBlockQuote.border': '#007acc80',
    'textLink.foreground': '#3794FF', 'textLink.activeForeground': '#3794FF', 'textPreformat.foreground': '#D7BA7D',
    'textPreformat.background': '#FFFFFF1A', 'panel.border': '#80808059', 'sideBar.background': '#252526',
    'editor.background': '#1E1E1E', 'input.background': '#3C3C3C', 'button.background': '#0E639C', 'button.foreground': '#ffffff',
    'charts.green': '#89D185', 'charts.red': '#F14C4C', 'list.activeSelectionBackground': '#04395E', 'list.activeSelectionForeground': '#ffffff',
    'list.inactiveSelectionBackground': '#37373D',
    'badge.background': '#4D4D4D', 'badge.foreground': '#ffffff', 'editor.foreground': '#BBBBBB', 'icon.foreground': '#C5C5C5', 'editorWarning.foreground': '#CCA700', 'editorWidget.background': '#252526',
  },
  hcDark: {
    foreground: '#FFFFFF', descriptionForeground: '#ffffffb3', errorForeground: '#F48771', focusBorder: '#F38518',
    contrastBorder: '#6FC3DF', contrastActiveBorder: '#F38518',
    'textCodeBlock.background': '#000000', 'textBlockQuote.border': '#ffffff',
    'textLink.foreground': '#21A6FF', 'textLink.activeForeground': '#21A6FF', 'textPreformat.foreground': '#FFFFFF',
    'panel.border': '#6FC3DF', 'sideBar.background': '#000000', 'editor.background': '#000000', 'input.background': '#000000',
    'input.border': '#6FC3DF', 'button.background': '#000000', 'button.foreground': '#ffffff', 'button.border': '#6FC3DF',
    'charts.green': '#89D185', 'charts.red': '#F48771',
    'badge.background': '#000000', 'badge.foreground': '#ffffff', 'editor.foreground': '#ffffff', 'icon.foreground': '#FFFFFF',
    'button.secondaryForeground': '#ffffff', 'editorWarning.foreground': '#FFD370', 'editorWidget.background': '#0C141F',
    'editorWidget.border': '#6FC3DF', 'widget.border': '#6FC3DF',
  },
  hcLight: {
    foreground: '#292929', descriptionForeground: '#292929b3', errorForeground: '#B5200D', focusBorder: '#006BBD',
    contrastBorder: '#0F4A85', contrastActiveBorder: '#006BBD',
    'textCodeBlock.background': '#F2F2F2', 'textBlockQuote.background': '#F2F2F2', 'textBlockQuote.border': '#292929',
    'textLink.foreground': '#0F4A85', 'textLink.activeForeground': '#0F4A85', 'textPreformat.foreground': '#FFFFFF',
    'textPreformat.background': '#09345f', 'panel.border': '#0F4A85', 'sideBar.background': '#FFFFFF', 'editor.background': '#FFFFFF',
    'input.background': '#FFFFFF', 'input.border': '#0F4A85', 'button.background': '#0F4A85', 'button.foreground': '#ffffff',
    'charts.green': '#374e06', 'charts.red': '#B5200D', 'list.activeSelectionBackground': '#0F4A851a', 'list.inactiveSelectionBackground': '#0F4A851a',
    'button.border': '#0F4A85', 'badge.background': '#0F4A85', 'badge.foreground': '#ffffff', 'editor.foreground': '#292929',
    'icon.foreground': '#292929', 'button.secondaryBackground': '#ffffff', 'button.secondaryForeground': '#292929', 'editorWarning.foreground': '#895503',
    'editorWidget.background': '#FFFFFF', 'editorWidget.border': '#0F4A85', 'widget.border': '#0F4A85',
  },
};

/** Registry colours whose default is another colour (resolved after the theme file is applied). */
const ALIASES: Record<string, string> = {
  'input.foreground': 'foreground',
  'charts.yellow': 'editorWarning.foreground',
  'settings.textInputBackground': 'input.background',
  'settings.textInputForeground': 'input.foreground',
  'settings.textInputBorder': 'input.border',
};

const THEMES: Array<{ slug: string; label: string; file: string; kind: ThemeKind; bodyClass: string }> = [
  { slug: 'light', label: 'Light Modern', file: 'light_modern.json', kind: 'light', bodyClass: 'vscode-light' },
  { slug: 'dark', label: 'Dark Modern', file: 'dark_modern.json', kind: 'dark', bodyClass: 'vscode-dark' },
  { slug: 'hc', label: 'Dark High Contrast', file: 'hc_black.json', kind: 'hcDark', bodyClass: 'vscode-high-contrast' },
  { slug: 'hc-light', label: 'Light High Contrast', file: 'hc_light.json', kind: 'hcLight', bodyClass: 'vscode-high-contrast-light' },
];

/** The four themes of issue 12, read from the theme files under `vscodeDir` (lib/vscode). */
export function loadThemes(vscodeDir: string): VscodeTheme[] {
  const folder = join(vscodeDir, 'extensions', 'theme-defaults', 'themes');
  return THEMES.map(({ slug, label, file, kind, bodyClass }) => {
    const colors: Record<string, string> = { ...REGISTRY[kind], ...themeColors(join(folder, file)) };
    for (const [id, source] of Object.entries(ALIASES)) {
      const value = colors[source];
      if (colors[id] === undefined && value !== undefined) colors[id] = value;
    }
    const vars: Record<string, string> = {
      '--vscode-font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
      '--vscode-font-size': '13px',
      '--vscode-font-weight': 'normal',
      '--vscode-editor-font-family': '"Droid Sans Mono", "monospace", monospace',
      '--monaco-monospace-font': '"Droid Sans Mono", "monospace", monospace',
    };
    for (const [id, value] of Object.entries(colors)) vars[`--vscode-${id.replace(/\./g, '-')}`] = value;
    return { slug, label, kind, bodyClass, vars };
  });
}

/** A theme file's colours, its `include` chain first (the including file wins). */
function themeColors(file: string): Record<string, string> {
  // Theme files are JSON with comments and trailing commas.
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\/|("(?:\\.|[^"\\])*")|\/\/[^\n]*/g, (match, string: string | undefined) => string ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
  const theme = JSON.parse(text) as { include?: string; colors?: Record<string, string> };
  const included = theme.include ? themeColors(join(dirname(file), theme.include)) : {};
  return { ...included, ...(theme.colors ?? {}) };
}

/**
 * The default styles VS Code puts in every webview (the `vscode-default` layer of the webview's
 * pre/index.html), the rules that colour text: our unlayered CSS wins over them, as in VS Code.
 */
export const WEBVIEW_DEFAULT_STYLES = `@layer vscode-default {
  body { background-color: transparent; color: var(--vscode-editor-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  a, a code { color: var(--vscode-textLink-foreground); }
  a:hover { color: var(--vscode-textLink-activeForeground); }
  code { font-family: var(--monaco-monospace-font); color: var(--vscode-textPreformat-foreground); background-color: var(--vscode-textPreformat-background); padding: 1px 3px; border-radius: 4px; }
  pre code { padding: 0; }
  blockquote { background: var(--vscode-textBlockQuote-background); border-color: var(--vscode-textBlockQuote-border); }
}`;

/**
 * Sets the theme's variables and body classes on the page as VS Code does (through the CSSOM, which
 * the strict CSP allows); `surface` is what shows through the transparent webview (the sidebar or
 * the editor area).
 */
export async function applyTheme(page: Page, theme: VscodeTheme, surface: '--vscode-sideBar-background' | '--vscode-editor-background'): Promise<void> {
  // VS Code gives the HC Light body both high-contrast classes (webview pre/index.html).
  const classes = theme.kind === 'hcLight' ? ['vscode-high-contrast', theme.bodyClass] : [theme.bodyClass];
  await page.evaluate(
    ({ vars, bodyClasses, background, defaults }) => {
      const root = document.documentElement;
      for (const name of Array.from(root.style)) if (name.startsWith('--')) root.style.removeProperty(name);
      for (const [name, value] of Object.entries(vars)) root.style.setProperty(name, value);
      root.style.setProperty('background', background);
      document.body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast', 'vscode-high-contrast-light');
      document.body.classList.add(...bodyClasses);
      if (document.adoptedStyleSheets.length === 0) {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(defaults);
        document.adoptedStyleSheets = [sheet];
      }
    },
    { vars: theme.vars, bodyClasses: classes, background: theme.vars[surface] ?? '', defaults: WEBVIEW_DEFAULT_STYLES },
  );
}
