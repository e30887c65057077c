// What launch_app accepts as an application name: a name as a person would say it ("Text
// Editor", "gnome-calculator", "Notepad++"), never a path, a command line or shell syntax.
// Checked by the tool (INVALID_INPUT before anything runs) and again by every launcher.

export const MAX_APP_NAME_LENGTH = 100;

const ALLOWED = /^[\p{L}\p{N}][\p{L}\p{M}\p{N} ._+,-]*$/u;

/** Characters with a meaning to a shell, PowerShell or a path, named in the refusal. */
const SHELL_CHARS = /[;|&<>$`\\/~*?!#%^=()[\]{}'"\n\r\t\0]/u;

/**
 * Why `name` cannot be an application name (e.g. `appName: "../x" is a path ...`), or
 * undefined when it can. Never says more than the first problem.
 */
export function appNameProblem(name: string, field = 'appName'): string | undefined {
  const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
  const rule = 'give the name of an installed application as the app menu shows it (letters, digits, spaces and . _ + , -)';
  if (name.trim() === '') return `${field}: empty; ${rule}`;
  if (name.length > MAX_APP_NAME_LENGTH) return `${field}: longer than ${MAX_APP_NAME_LENGTH} characters; ${rule}`;
  if (name.includes('/') || name.includes('\\') || name.includes('..') || name.startsWith('~') || /^[a-z]:/i.test(name)) {
    return `${field}: ${shown} is a path; launch_app starts installed applications by name only, never a file`;
  }
  const shell = SHELL_CHARS.exec(name)?.[0];
  if (shell !== undefined) {
    return `${field}: ${shown} contains ${JSON.stringify(shell)}, which is shell syntax; nothing is run through a shell: ${rule}`;
  }
  if (/(^|\s)-/.test(name)) return `${field}: ${shown} has a word starting with "-" (a command-line option); ${rule}`;
  if (!ALLOWED.test(name)) return `${field}: ${shown} has characters an application name does not; ${rule}`;
  return undefined;
}

/** Thrown by launchers for a name they refuse (a path, shell syntax) before anything runs. */
export class InvalidAppNameError extends Error {
  constructor(readonly problem: string) {
    super(problem);
    this.name = 'InvalidAppNameError';
  }
}

/**
 * Thrown by launchers when the name matches no installed application but an executable,
 * which runs only when the person allowed it by name (`gai.launch.allow`, `launch.allow`).
 */
export class LaunchNotAllowedError extends Error {
  constructor(
    readonly appName: string,
    readonly executable: string,
  ) {
    super(
      `"${appName}" is not an installed application (no desktop entry, app bundle or Start menu entry matches it) but the program ${executable}; ` +
        'programs run only when the person allowed them by name in gai.launch.allow (CLI config: launch.allow)',
    );
    this.name = 'LaunchNotAllowedError';
  }
}

/** Throws InvalidAppNameError unless `name` is an acceptable application name. */
export function assertAppName(name: string): void {
  const problem = appNameProblem(name);
  if (problem) throw new InvalidAppNameError(problem);
}

/** Whether the person allowed a program by this name (case-insensitive, exact). */
export function isLaunchAllowed(allow: readonly string[], ...names: string[]): boolean {
  const allowed = new Set(allow.map((name) => name.trim().toLowerCase()).filter(Boolean));
  return names.some((name) => allowed.has(name.trim().toLowerCase()));
}
