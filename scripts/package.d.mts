// Types for package.mjs (used from test/vscode/package.test.ts, test/packaging and bench/packageBench.ts).
import type { VsixCheck } from './packaging/checkVsix.mjs';

export interface PackageOptions {
  /** linux-x64, linux-arm64, win32-x64, win32-arm64, darwin-x64 or darwin-arm64; default this machine's. */
  target?: string;
  /** Where to write the .vsix; default <repo>/gai-<version>-<target>.vsix. */
  out?: string;
  /** Keep the staging folder (its path is returned as stagingDir). */
  keepStaging?: boolean;
  /** Hide the build's and vsce's output unless a step fails. */
  quiet?: boolean;
  log?: (line: string) => void;
  /** Where other platforms' packages fetched from the registry are kept; default node_modules/.cache/gai-packaging. */
  cacheDir?: string;
}

export interface PackagesOptions extends Omit<PackageOptions, 'target' | 'out'> {
  /** Default all six. */
  targets?: string[];
  /** Default the project root; each file is gai-<version>-<target>.vsix. */
  outDir?: string;
  /** Overrides outDir: the path of each target's .vsix. */
  outFor?: (target: string) => string;
}

export interface PackagePart {
  /** A package (`node_modules/sharp`), a bundle (`dist/extension.js`) or a folder (`media/`). */
  name: string;
  bytes: number;
  compressedBytes: number;
  files: number;
}

export interface PackageResult {
  vsixPath: string;
  vsixBytes: number;
  unpackedBytes: number;
  fileCount: number;
  /** VS Code target platform (e.g. linux-x64). */
  target: string;
  /** Runtime packages copied into node_modules. */
  packages: number;
  /** Largest first (compressed). */
  parts: PackagePart[];
  /** Every native file with its format and arch; a build with problems throws instead. */
  check: VsixCheck;
  stagingDir?: string;
}

export interface VsixEntry {
  name: string;
  size: number;
  compressedSize: number;
}

interface LockFile {
  packages?: Record<string, { version?: string; optional?: boolean; os?: string[]; cpu?: string[]; libc?: string[]; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string> }>;
}

export declare const RUNTIME_PACKAGES: string[];
export declare function runtimeClosure(lock: LockFile, roots: string[], isInstalled?: (lockPath: string, how: { required: boolean }) => boolean): string[];
/** The runtime closure with the platform packages that fit `target` (installed here or not). */
export declare function targetClosure(lock: LockFile, target: string): string[];
/** VS Code's target for this machine (linux-x64, alpine-arm64, ...). */
export declare function machineTarget(): string;
/** gai-<version>-<target>.vsix */
export declare function vsixName(target: string): string;
export declare function buildPackages(options?: PackagesOptions): Promise<PackageResult[]>;
export declare function packagedManifest(manifest: Record<string, unknown>): Record<string, unknown>;
export declare function packagedReadme(text: string, exists: (target: string) => boolean): string;
export declare function buildPackage(options?: PackageOptions): Promise<PackageResult>;
export declare function readVsix(vsixPath: string): Promise<VsixEntry[]>;
export declare function formatBytes(bytes: number): string;
/** The README's relative image paths, each once (they ship in the .vsix beside the README). */
export declare function readmePictures(text: string): string[];
