// Types for ensureDeps.mjs (used from test/setup/externalPrograms.test.ts).
export declare const APT_PACKAGES: string[];
export declare function ensureNodeModules(): void;
export declare function ensureAptPackages(list: string[]): void;
export declare function ensureDeps(extraAptPackages?: string[]): void;
