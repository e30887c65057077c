// Reads what a native binary is built for from its header alone, written from the format specs:
// ELF (System V gABI: e_ident, e_machine at 18), PE/COFF (Microsoft PE format: e_lfanew at 0x3c,
// "PE\0\0", then the COFF Machine), Mach-O (<mach-o/loader.h>: magic, cputype; <mach-o/fat.h>:
// big-endian fat header and its fat_arch / fat_arch_64 slices).

const ELF_MACHINES = { 0x03: 'x86', 0x28: 'arm', 0x3e: 'x64', 0xb7: 'arm64', 0xf3: 'riscv64', 0x15: 'ppc64', 0x16: 's390x' };
const PE_MACHINES = { 0x014c: 'x86', 0x8664: 'x64', 0xaa64: 'arm64', 0x01c4: 'arm', 0xa641: 'arm64ec' };
const MACHO_CPUS = { 0x01000007: 'x64', 0x0100000c: 'arm64', 0x00000007: 'x86', 0x0000000c: 'arm', 0x0200000c: 'arm64_32' };
/** Mach-O names its slices differently from Node: x86_64 for x64. */
const MACHO_NAMES = { x64: 'x86_64', arm64: 'arm64', x86: 'i386', arm: 'arm', arm64_32: 'arm64_32' };

/**
 * What `bytes` is: undefined when it starts with no native header at all; otherwise
 * { format: 'elf' | 'pe' | 'macho', os, archs, description } or { format, error } when the header
 * is cut short or unreadable. archs uses Node's names (x64, arm64, ...); os is linux, win32, darwin.
 */
export function readBinaryHeader(bytes) {
  if (bytes.length >= 4 && bytes[0] === 0x7f && bytes.toString('latin1', 1, 4) === 'ELF') return readElf(bytes);
  if (bytes.length >= 2 && bytes[0] === 0x4d && bytes[1] === 0x5a) return readPe(bytes);
  if (bytes.length >= 4) {
    const be = bytes.readUInt32BE(0);
    if (be === 0xcafebabe || be === 0xcafebabf) return readFat(bytes, be === 0xcafebabf);
    const le = bytes.readUInt32LE(0);
    if (le === 0xfeedfacf || le === 0xfeedface) return readThinMachO(bytes);
  }
  return undefined;
}

function readElf(bytes) {
  if (bytes.length < 20) return { format: 'elf', error: `truncated ELF header (${bytes.length} of 20 bytes up to e_machine)` };
  const littleEndian = bytes[5] === 1;
  if (bytes[5] !== 1 && bytes[5] !== 2) return { format: 'elf', error: `bad ELF data encoding ${bytes[5]}` };
  const machine = littleEndian ? bytes.readUInt16LE(18) : bytes.readUInt16BE(18);
  const arch = ELF_MACHINES[machine] ?? `e_machine 0x${machine.toString(16)}`;
  const bits = bytes[4] === 2 ? 64 : 32;
  return { format: 'elf', os: 'linux', archs: [arch], description: `ELF ${bits}-bit ${arch}` };
}

function readPe(bytes) {
  if (bytes.length < 0x40) return { format: 'pe', error: `truncated DOS header (${bytes.length} of 64 bytes)` };
  const peOffset = bytes.readUInt32LE(0x3c);
  if (bytes.length < peOffset + 6) return { format: 'pe', error: `truncated: PE header at ${peOffset} is past the end (${bytes.length} bytes)` };
  if (bytes.toString('latin1', peOffset, peOffset + 4) !== 'PE\0\0') return { format: 'pe', error: `no PE signature at ${peOffset} (a DOS program?)` };
  const machine = bytes.readUInt16LE(peOffset + 4);
  const arch = PE_MACHINES[machine] ?? `machine 0x${machine.toString(16)}`;
  return { format: 'pe', os: 'win32', archs: [arch], description: `PE ${arch}` };
}

function readThinMachO(bytes) {
  if (bytes.length < 8) return { format: 'macho', error: `truncated Mach-O header (${bytes.length} of 8 bytes up to cputype)` };
  const cpu = bytes.readUInt32LE(4);
  const arch = MACHO_CPUS[cpu] ?? `cputype 0x${cpu.toString(16)}`;
  return { format: 'macho', os: 'darwin', archs: [arch], description: `Mach-O ${MACHO_NAMES[arch] ?? arch}` };
}

function readFat(bytes, wide) {
  if (bytes.length < 8) return { format: 'macho', error: `truncated fat header (${bytes.length} of 8 bytes)` };
  const count = bytes.readUInt32BE(4);
  // 0xcafebabe is also a Java class file, whose next word is its version (45 and up).
  if (count === 0 || count > 30) return undefined;
  const entrySize = wide ? 32 : 20;
  if (bytes.length < 8 + count * entrySize) return { format: 'macho', error: `truncated fat header (${count} slices need ${8 + count * entrySize} bytes, ${bytes.length} present)` };
  const archs = [];
  for (let i = 0; i < count; i++) {
    const entry = 8 + i * entrySize;
    const cpu = bytes.readUInt32BE(entry);
    const offset = wide ? Number(bytes.readBigUInt64BE(entry + 8)) : bytes.readUInt32BE(entry + 8);
    const size = wide ? Number(bytes.readBigUInt64BE(entry + 16)) : bytes.readUInt32BE(entry + 12);
    const arch = MACHO_CPUS[cpu] ?? `cputype 0x${cpu.toString(16)}`;
    if (offset + size > bytes.length) return { format: 'macho', error: `truncated: the ${MACHO_NAMES[arch] ?? arch} slice ends at ${offset + size}, the file at ${bytes.length}` };
    // Each slice is a thin Mach-O of the cputype the fat header claims.
    const slice = readBinaryHeader(bytes.subarray(offset, offset + size));
    if (!slice || slice.error || slice.archs.length !== 1 || slice.archs[0] !== arch) return { format: 'macho', error: `the ${MACHO_NAMES[arch] ?? arch} slice at ${offset} is not a Mach-O of that cputype` };
    archs.push(arch);
  }
  return { format: 'macho', os: 'darwin', archs, description: `Mach-O universal (${archs.map((arch) => MACHO_NAMES[arch] ?? arch).join(', ')})` };
}
