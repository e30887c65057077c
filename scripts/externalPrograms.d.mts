// Types for externalPrograms.mjs (used from test/setup/externalPrograms.test.ts).
export interface ExternalProgram {
  /** A Debian package in APT_PACKAGES (scripts/ensureDeps.mjs). */
  apt?: string;
  /** A Debian package in HOST_APT_PACKAGES (scripts/vscodeHost/install.mjs). */
  hostApt?: string;
  /** Comes with Node.js. */
  node?: true;
  /** A package every Debian system has. */
  debian?: string;
  /** Part of that operating system (or Linux distribution); only run there. */
  platform?: 'darwin' | 'win32' | 'fedora' | 'alpine' | 'arch';
  /** Nothing installs it; the skip reason the tests print. */
  optional?: string;
  /** Started by a library, not by our code: the scan cannot see it. */
  indirect?: true;
  /** What needs it. */
  for: string;
}

export interface RunTimeCommand {
  file: string;
  /** The expression at the spawn site, as written; null for every such site in the file. */
  expression: string | null;
  /** The program it is, or null when the person or the model names it. */
  command: string | null;
  why: string;
}

export declare const EXTERNAL_PROGRAMS: Readonly<Record<string, ExternalProgram>>;
export declare const RUN_TIME_COMMANDS: readonly RunTimeCommand[];
