// How applications are named for per-app permissions: one key for the names a window can
// report (WM_CLASS "XTerm", a bundle id "com.apple.Terminal", an exe "WindowsTerminal.exe"),
// the default deny list, and the person's allow/deny patterns.

/** Applications GAI may not act in unless the person allows them by name in the settings. */
const DEFAULT_DENIED: ReadonlyArray<{ category: string; names: readonly string[] }> = [
  {
    // Typing into a terminal runs commands: one wrong keystroke can do anything.
    category: 'terminals',
    names: [
      'gnome-terminal', 'gnome-terminal-server', 'org.gnome.terminal', 'kgx', 'org.gnome.console', 'ptyxis', 'org.gnome.ptyxis',
      'xterm', 'uxterm', 'konsole', 'org.kde.konsole', 'kitty', 'alacritty', 'tilix', 'com.gexperts.tilix', 'terminator',
      'xfce4-terminal', 'urxvt', 'rxvt', 'rxvt-unicode', 'wezterm', 'org.wezfurlong.wezterm', 'foot', 'footclient',
      'lxterminal', 'mate-terminal', 'qterminal', 'sakura', 'terminology', 'guake', 'tilda', 'yakuake', 'st', 'st-256color',
      'cool-retro-term', 'deepin-terminal', 'io.elementary.terminal', 'blackbox', 'com.raggesilver.blackbox', 'ghostty',
      'com.mitchellh.ghostty', 'hyper', 'tabby', 'dev.warp.warp', 'eterm', 'terminal', 'com.apple.terminal',
      'iterm', 'iterm2', 'com.googlecode.iterm2', 'windowsterminal', 'wt', 'cmd', 'powershell', 'pwsh', 'conhost',
      'openconsole', 'mintty',
    ],
  },
  {
    // Password managers show every secret the person has.
    category: 'password managers',
    names: [
      'keepassxc', 'org.keepassxc.keepassxc', 'keepass', 'keepass2', 'keeweb', 'bitwarden', 'com.bitwarden.desktop',
      '1password', 'com.1password.1password', 'seahorse', 'org.gnome.seahorse.application', 'enpass', 'lastpass',
      'dashlane', 'nordpass', 'proton pass', 'proton-pass', 'roboform', 'keeper password manager', 'keeper',
      'kwalletmanager', 'kwalletmanager5', 'org.kde.kwalletmanager5', 'secrets', 'org.gnome.world.secrets',
      'gnome-passwordsafe', 'passwordsafe', 'pwsafe', 'keychain access', 'com.apple.keychainaccess', 'passwords',
      'com.apple.passwords', 'qtpass', 'gopass', 'authpass',
    ],
  },
];

const CATEGORY_BY_NAME = new Map<string, string>(DEFAULT_DENIED.flatMap(({ category, names }) => names.map((name) => [name, category] as const)));

/** The same application however its window names it: lower case, no `.exe`, trimmed. */
export function appKey(name: string): string {
  return name.trim().toLowerCase().replace(/\.exe$/, '');
}

/** The key and, for a reverse-DNS id (`org.keepassxc.KeePassXC`), its last part too. */
function candidates(key: string): string[] {
  const dot = key.lastIndexOf('.');
  return dot > 0 && dot < key.length - 1 ? [key, key.slice(dot + 1)] : [key];
}

/** The default deny list's category for an app ("terminals"), if it is on the list. */
export function defaultDenialCategory(key: string): string | undefined {
  for (const candidate of candidates(key)) {
    const category = CATEGORY_BY_NAME.get(candidate);
    if (category) return category;
  }
  return undefined;
}

/** A person's app patterns (`gai.apps.allow`, `apps.allow`): names, case-insensitive, `*` wildcards. */
export class AppPatterns {
  private readonly exact: Set<string>;
  private readonly wildcards: RegExp[];

  constructor(patterns: readonly string[] = []) {
    const keys = patterns.map(appKey).filter((key) => key !== '');
    this.exact = new Set(keys.filter((key) => !key.includes('*')));
    this.wildcards = keys.filter((key) => key.includes('*')).map(wildcardToRegExp);
  }

  /** Named exactly (not by a wildcard): what lifting a default denial needs. */
  namesExactly(key: string): boolean {
    return candidates(key).some((candidate) => this.exact.has(candidate));
  }

  matches(key: string): boolean {
    return this.namesExactly(key) || candidates(key).some((candidate) => this.wildcards.some((re) => re.test(candidate)));
  }
}

function wildcardToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*');
  return new RegExp(`^${escaped}$`);
}

/** A name from a window, safe to show in a prompt: no control characters (escape sequences), bounded. */
export function displayName(name: string, max = 80): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
