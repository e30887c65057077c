export interface LockEntry {
  version?: string;
  integrity?: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

export declare const TARGETS: string[];
export declare function entryFitsTarget(entry: LockEntry, target: string): boolean;
export declare function isPlatformPackage(entry: LockEntry): boolean;
/** The folder to copy a package from: installed here, or fetched into cacheDir (verified). */
export declare function packageSource(root: string, lockPath: string, entry: LockEntry, cacheDir: string, log?: (line: string) => void): string;
export declare function verifyIntegrity(bytes: Buffer, integrity: string | undefined, label: string): void;
