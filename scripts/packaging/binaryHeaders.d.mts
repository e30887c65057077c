export interface BinaryHeader {
  format: 'elf' | 'pe' | 'macho';
  /** linux, win32 or darwin; absent when the header could not be read (see error). */
  os?: string;
  /** Node's names: x64, arm64, x86, arm...; a universal Mach-O lists each slice. */
  archs?: string[];
  description?: string;
  /** Truncated or unreadable header. */
  error?: string;
}

/** What `bytes` is built for, from its header; undefined when it has no ELF, PE or Mach-O header. */
export declare function readBinaryHeader(bytes: Buffer): BinaryHeader | undefined;
