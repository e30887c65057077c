// The .vsix binary checker (scripts/packaging/): every native file's header read for its OS and
// CPU, on real prebuilt binaries of every platform (the Linux ones npm installed here, the
// others fetched from the registry at the locked version, as `npm run package` does) and on
// crafted headers that are wrong or cut short.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'gai-packaging');

type Headers = typeof import('../../scripts/packaging/binaryHeaders.mjs');
type Checker = typeof import('../../scripts/packaging/checkVsix.mjs');
type Platforms = typeof import('../../scripts/packaging/platformPackages.mjs');

interface Lock {
  packages: Record<string, { version?: string; integrity?: string; optional?: boolean; os?: string[]; cpu?: string[] }>;
}

describe('packaging: native binary headers', function () {
  this.timeout(120_000);
  let headers: Headers;
  let checker: Checker;
  let platforms: Platforms;
  let lock: Lock;

  before(async () => {
    headers = (await import('../../scripts/packaging/binaryHeaders.mjs')) as Headers;
    checker = (await import('../../scripts/packaging/checkVsix.mjs')) as Checker;
    platforms = (await import('../../scripts/packaging/platformPackages.mjs')) as Platforms;
    lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
  });

  /** A file of a locked package, from node_modules or the registry cache (fetched if absent). */
  const packageFile = (name: string, file: string): Buffer => {
    const lockPath = `node_modules/${name}`;
    const entry = lock.packages[lockPath];
    assert.ok(entry, `${name} is in package-lock.json`);
    return readFileSync(join(platforms.packageSource(ROOT, lockPath, entry, CACHE), file));
  };
  const version = (name: string): string => lock.packages[`node_modules/${name}`]?.version ?? '';

  it('reads every platform prebuilt addon for its OS and CPU, universal Mach-O slices listed', () => {
    const cases: [string, string, string][] = [
      ['@nut-tree-fork/libnut-linux', 'build/Release/libnut.node', 'ELF 64-bit x64'],
      ['@nut-tree-fork/libnut-win32', 'build/Release/libnut.node', 'PE x64'],
      ['@nut-tree-fork/libnut-darwin', 'build/Release/libnut.node', 'Mach-O universal (x86_64, arm64)'],
      ['@img/sharp-linux-x64', `lib/sharp-linux-x64-${version('@img/sharp-linux-x64')}.node`, 'ELF 64-bit x64'],
      ['@img/sharp-linux-arm64', `lib/sharp-linux-arm64-${version('@img/sharp-linux-arm64')}.node`, 'ELF 64-bit arm64'],
      ['@img/sharp-win32-x64', `lib/sharp-win32-x64-${version('@img/sharp-win32-x64')}.node`, 'PE x64'],
      ['@img/sharp-win32-arm64', `lib/sharp-win32-arm64-${version('@img/sharp-win32-arm64')}.node`, 'PE arm64'],
      ['@img/sharp-darwin-x64', `lib/sharp-darwin-x64-${version('@img/sharp-darwin-x64')}.node`, 'Mach-O x86_64'],
      ['@img/sharp-darwin-arm64', `lib/sharp-darwin-arm64-${version('@img/sharp-darwin-arm64')}.node`, 'Mach-O arm64'],
      ['@img/sharp-libvips-darwin-arm64', 'lib/libvips-cpp.8.18.7.dylib', 'Mach-O arm64'],
      ['@img/sharp-libvips-linux-arm64', 'lib/libvips-cpp.so.8.18.7', 'ELF 64-bit arm64'],
      ['@nut-tree-fork/node-mac-permissions', 'build/Release/permissions.node', 'Mach-O universal (x86_64, arm64)'],
    ];
    for (const [name, file, description] of cases) {
      assert.equal(headers.readBinaryHeader(packageFile(name, file))?.description, description, `${name}/${file}`);
    }
    assert.equal(headers.readBinaryHeader(readFileSync(join(ROOT, 'package.json'))), undefined, 'a text file has no native header');
  });

  it('a universal Mach-O fits both darwin targets and no other; each thin binary only its own', () => {
    const universal = packageFile('@nut-tree-fork/libnut-darwin', 'build/Release/libnut.node');
    assert.equal(checker.checkFile('libnut.node', universal, 'darwin-x64')?.problem, undefined);
    assert.equal(checker.checkFile('libnut.node', universal, 'darwin-arm64')?.problem, undefined);
    assert.equal(checker.checkFile('libnut.node', universal, 'linux-x64')?.problem, 'Mach-O universal (x86_64, arm64) is a darwin binary, not linux');
    const arm = packageFile('@img/sharp-darwin-arm64', `lib/sharp-darwin-arm64-${version('@img/sharp-darwin-arm64')}.node`);
    assert.equal(checker.checkFile('sharp.node', arm, 'darwin-x64')?.problem, 'Mach-O arm64 has no x64 code');
    const winArm = packageFile('@img/sharp-win32-arm64', 'lib/libvips-42.dll');
    assert.equal(checker.checkFile('libvips-42.dll', winArm, 'win32-x64')?.problem, 'PE arm64 has no x64 code');
    assert.equal(checker.checkFile('libvips-42.dll', winArm, 'win32-arm64')?.problem, undefined);
    const linux = packageFile('@nut-tree-fork/libnut-linux', 'build/Release/libnut.node');
    assert.equal(checker.checkFile('libnut.node', linux, 'linux-arm64')?.problem, 'ELF 64-bit x64 has no arm64 code');
    assert.equal(checker.checkFile('libnut.node', linux, 'win32-x64')?.problem, 'ELF 64-bit x64 is a linux binary, not win32');
  });

  it('finds the wrong CPU, the wrong OS and truncated headers in crafted files', () => {
    const elf = (machine: number): Buffer => {
      const bytes = Buffer.alloc(64);
      bytes.write('\x7fELF', 0, 'latin1');
      bytes[4] = 2; // 64-bit
      bytes[5] = 1; // little-endian
      bytes.writeUInt16LE(machine, 18);
      return bytes;
    };
    assert.equal(checker.checkFile('a.so', elf(0xb7), 'linux-x64')?.problem, 'ELF 64-bit arm64 has no x64 code');
    assert.equal(checker.checkFile('a.so', elf(0x3e), 'linux-x64')?.problem, undefined);
    assert.equal(checker.checkFile('a.so', elf(0x28), 'linux-arm64')?.problem, 'ELF 64-bit arm has no arm64 code');
    assert.equal(checker.checkFile('a.node', elf(0x3e).subarray(0, 10), 'linux-x64')?.problem, 'truncated ELF header (10 of 20 bytes up to e_machine)');

    const pe = (machine: number, peOffset = 0x80): Buffer => {
      const bytes = Buffer.alloc(0x100);
      bytes.write('MZ', 0, 'latin1');
      bytes.writeUInt32LE(peOffset, 0x3c);
      if (peOffset + 6 > bytes.length) return bytes; // the header it points to is not there
      bytes.write('PE\0\0', peOffset, 'latin1');
      bytes.writeUInt16LE(machine, peOffset + 4);
      return bytes;
    };
    assert.equal(checker.checkFile('a.dll', pe(0x8664), 'win32-arm64')?.problem, 'PE x64 has no arm64 code');
    assert.equal(checker.checkFile('a.dll', pe(0xaa64), 'win32-arm64')?.problem, undefined);
    assert.equal(checker.checkFile('a.dll', pe(0x14c), 'win32-x64')?.problem, 'PE x86 has no x64 code');
    assert.equal(checker.checkFile('a.dll', pe(0x8664), 'linux-x64')?.problem, 'PE x64 is a win32 binary, not linux');
    assert.equal(checker.checkFile('a.dll', pe(0x8664, 0x400), 'win32-x64')?.problem, 'truncated: PE header at 1024 is past the end (256 bytes)');
    assert.equal(checker.checkFile('a.exe', pe(0x8664).subarray(0, 32), 'win32-x64')?.problem, 'truncated DOS header (32 of 64 bytes)');

    const thin = (cpu: number): Buffer => {
      const bytes = Buffer.alloc(32);
      bytes.writeUInt32LE(0xfeedfacf, 0);
      bytes.writeUInt32LE(cpu, 4);
      return bytes;
    };
    const fat = (slices: number[], cut = 0): Buffer => {
      const header = Buffer.alloc(8 + slices.length * 20);
      header.writeUInt32BE(0xcafebabe, 0);
      header.writeUInt32BE(slices.length, 4);
      slices.forEach((cpu, index) => {
        header.writeUInt32BE(cpu, 8 + index * 20);
        header.writeUInt32BE(64 + index * 32, 8 + index * 20 + 8);
        header.writeUInt32BE(32, 8 + index * 20 + 12);
      });
      const body = Buffer.alloc(64 + slices.length * 32);
      header.copy(body);
      slices.forEach((cpu, index) => thin(cpu).copy(body, 64 + index * 32));
      return body.subarray(0, body.length - cut);
    };
    assert.equal(checker.checkFile('a.dylib', thin(0x01000007), 'darwin-arm64')?.problem, 'Mach-O x86_64 has no arm64 code');
    assert.equal(checker.checkFile('a.dylib', fat([0x01000007, 0x0100000c]), 'darwin-arm64')?.description, 'Mach-O universal (x86_64, arm64)');
    assert.equal(checker.checkFile('a.dylib', fat([0x01000007, 0x0100000c]), 'darwin-arm64')?.problem, undefined);
    assert.equal(checker.checkFile('a.dylib', fat([0x01000007, 0x00000007]), 'darwin-x64')?.problem, 'Mach-O universal (x86_64, i386) carries x86, which darwin-x64 does not run');
    assert.equal(checker.checkFile('a.dylib', fat([0x01000007, 0x0100000c], 16), 'darwin-x64')?.problem, 'truncated: the arm64 slice ends at 128, the file at 112');
    const lying = fat([0x0100000c]);
    lying.writeUInt32LE(0x01000007, 64 + 4); // the slice itself is x86_64
    assert.equal(checker.checkFile('a.dylib', lying, 'darwin-arm64')?.problem, 'the arm64 slice at 64 is not a Mach-O of that cputype');

    // A Java class file shares 0xcafebabe; its next word is a version, not a slice count.
    const javaClass = Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52, 0, 0]);
    assert.equal(checker.checkFile('A.class', javaClass, 'linux-x64'), undefined);
    assert.equal(checker.checkFile('lib/addon.node', Buffer.from('module.exports = 1'), 'linux-x64')?.problem, 'named like a native binary but has no ELF, PE or Mach-O header');
    assert.equal(checker.checkFile('lib/readme.txt', Buffer.from('text'), 'linux-x64'), undefined);
  });

  it('a fetched tarball must match the lock file integrity', () => {
    const bytes = Buffer.from('a tarball');
    const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
    platforms.verifyIntegrity(bytes, integrity, 'x@1');
    assert.throws(() => platforms.verifyIntegrity(Buffer.from('another tarball'), integrity, 'x@1'), /x@1: the fetched tarball's sha512 is .*, package-lock.json says/);
    assert.throws(() => platforms.verifyIntegrity(bytes, undefined, 'x@1'), /x@1: package-lock.json has no integrity for it/);
  });

  it('picks the platform packages of a target by the lock file os, cpu and libc', () => {
    const entry = (name: string) => lock.packages[`node_modules/${name}`] ?? {};
    assert.ok(platforms.entryFitsTarget(entry('@img/sharp-linux-arm64'), 'linux-arm64'));
    assert.ok(!platforms.entryFitsTarget(entry('@img/sharp-linuxmusl-arm64'), 'linux-arm64'), 'musl is for alpine, not linux-*');
    assert.ok(!platforms.entryFitsTarget(entry('@img/sharp-win32-ia32'), 'win32-x64'));
    assert.ok(platforms.entryFitsTarget(entry('@img/sharp-win32-arm64'), 'win32-arm64'));
    assert.ok(platforms.entryFitsTarget(entry('@nut-tree-fork/node-mac-permissions'), 'darwin-arm64'));
    assert.ok(!platforms.entryFitsTarget(entry('@nut-tree-fork/node-mac-permissions'), 'linux-x64'));
    assert.throws(() => checker.parseTarget('alpine-x64'), /unknown target alpine-x64: expected linux-x64, linux-arm64/);
  });
});
