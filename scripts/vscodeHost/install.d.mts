// Types for install.mjs.
export interface HostPaths {
  root: string;
  nodeDir: string;
  node: string;
  codeServerDir: string;
  serverMain: string;
  playwrightCore: string;
  chromium: string;
}
export declare const VERSIONS: Readonly<{ node: string; codeServer: string; playwrightCore: string }>;
export declare const HOST_APT_PACKAGES: string[];
export declare const CHROMIUM: string;
export declare function cacheRoot(): string;
export declare function hostPaths(root?: string): HostPaths;
/** Installs what is missing; may end the process when Debian packages cannot be installed. */
export declare function ensureVscodeHost(): HostPaths;
