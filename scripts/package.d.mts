// Types for package.mjs (used from test/vscode/package.test.ts and bench/packageBench.ts).
export interface PackageOptions {
  /** Where to write the .vsix; default <repo>/gai-<version>.vsix. */
  out?: string;
  /** Keep the staging folder (its path is returned as stagingDir). */
  keepStaging?: boolean;
  /** Hide the build's and vsce's output unless a step fails. */
  quiet?: boolean;
  log?: (line: string) => void;
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
  /** VS Code target platform (e.g. linux-x64); undefined for a universal package. */
  target: string | undefined;
  /** Runtime packages copied into node_modules. */
  packages: number;
  /** Largest first (compressed). */
  parts: PackagePart[];
  stagingDir?: string;
}

export interface VsixEntry {
  name: string;
  size: number;
  compressedSize: number;
}

interface LockFile {
  packages?: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string> }>;
}

export declare const RUNTIME_PACKAGES: string[];
export declare function runtimeClosure(lock: LockFile, roots: string[], isInstalled?: (lockPath: string) => boolean): string[];
export declare function packagedManifest(manifest: Record<string, unknown>): Record<string, unknown>;
export declare function packagedReadme(text: string, exists: (target: string) => boolean): string;
export declare function buildPackage(options?: PackageOptions): Promise<PackageResult>;
export declare function readVsix(vsixPath: string): Promise<VsixEntry[]>;
export declare function formatBytes(bytes: number): string;
/** The README's relative image paths, each once (they ship in the .vsix beside the README). */
export declare function readmePictures(text: string): string[];
