import type { BinaryHeader } from './binaryHeaders.mjs';

export interface NativeFile {
  /** Path inside the extension (extension/ stripped). */
  name: string;
  format: 'elf' | 'pe' | 'macho' | 'unknown';
  archs: string[];
  description?: string;
  /** Why it does not belong in the target's package. */
  problem?: string;
}

export interface VsixCheck {
  target: string;
  files: NativeFile[];
  /** `<file>: <problem>` for each file that does not fit; empty when all do. */
  problems: string[];
}

export declare function parseTarget(target: string): { os: string; arch: string };
export declare function headerProblem(header: BinaryHeader, target: string): string | undefined;
export declare function checkFile(name: string, bytes: Buffer, target: string): NativeFile | undefined;
export declare function checkVsix(vsixPath: string, target: string): Promise<VsixCheck>;
export declare function formatCheck(check: VsixCheck): string;
export declare function readVsixFile(vsixPath: string, entryName: string): Promise<Buffer | undefined>;
