export declare const LICENSE_FILE: RegExp;
export declare function binaryFitsTarget(sourcePath: string, target: string): boolean;
export declare function keepInPackage(file: { name: string; path: string; isDir: boolean; target: string; source: string }): boolean;
