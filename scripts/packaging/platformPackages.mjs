// The platform packages a target needs that npm did not install on this machine (sharp's
// @img/sharp-<os>-<cpu> and @img/sharp-libvips-<os>-<cpu> for another OS or CPU): fetched with
// `npm pack` at the exact version package-lock.json pins, checked against the lock's integrity,
// unpacked into a cache folder that later runs reuse.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseTarget } from './checkVsix.mjs';

export const TARGETS = ['linux-x64', 'linux-arm64', 'win32-x64', 'win32-arm64', 'darwin-x64', 'darwin-arm64'];

/** Does a lockfile entry with os/cpu/libc fields install on `target` (glibc on Linux, as VS Code's linux-* targets)? */
export function entryFitsTarget(entry, target) {
  const { os, arch } = parseTarget(target);
  const allows = (list, value) => !list || (list.includes(value) && !list.includes(`!${value}`));
  return allows(entry.os, os) && allows(entry.cpu, arch) && (os !== 'linux' || allows(entry.libc, 'glibc'));
}

/** A package npm installs only on some platforms (it names an os or cpu in the lock). */
export function isPlatformPackage(entry) {
  return Boolean(entry.os || entry.cpu) && entry.optional === true;
}

/**
 * The folder to copy `lockPath` from for a package: the installed one when the lock's version
 * is on disk, else the cache (filled from the registry on first use).
 */
export function packageSource(root, lockPath, entry, cacheDir, log = () => undefined) {
  const installed = join(root, lockPath);
  if (existsSync(join(installed, 'package.json')) && JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version === entry.version) return installed;
  const name = lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const cached = join(cacheDir, `${name.replace('/', '+')}-${entry.version}`);
  if (existsSync(join(cached, 'package.json'))) return cached;
  log(`package: fetching ${name}@${entry.version} from the npm registry (cached in ${cacheDir})`);
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(cacheDir, '.fetch-'));
  try {
    const packed = spawnSync('npm', ['pack', `${name}@${entry.version}`, '--pack-destination', work, '--silent'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    if (packed.status !== 0) throw new Error(`npm pack ${name}@${entry.version} failed (the npm registry must be reachable to build other platforms' packages): ${(packed.stderr || packed.stdout || String(packed.error)).trim().split('\n').pop()}`);
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${name}@${entry.version} wrote no tarball`);
    verifyIntegrity(readFileSync(join(work, tarball)), entry.integrity, `${name}@${entry.version}`);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    const tar = spawnSync('tar', ['-xzf', join(work, tarball), '-C', unpacked], { encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`tar could not unpack ${tarball}: ${(tar.stderr || String(tar.error)).trim()}`);
    try {
      renameSync(join(unpacked, 'package'), cached);
    } catch (error) {
      // Another build filled the cache meanwhile (the same verified tarball).
      if (!existsSync(join(cached, 'package.json'))) throw error;
    }
    return cached;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Throws unless `bytes` hash to the lock's Subresource Integrity string (sha512-<base64>). */
export function verifyIntegrity(bytes, integrity, label) {
  if (!integrity) throw new Error(`${label}: package-lock.json has no integrity for it, so a fetched copy cannot be verified`);
  const wanted = integrity.split(/\s+/).map((item) => /^(sha\d+)-(.+)$/.exec(item)).find(Boolean);
  if (!wanted) throw new Error(`${label}: unreadable integrity ${integrity}`);
  const actual = createHash(wanted[1]).update(bytes).digest('base64');
  if (actual !== wanted[2]) throw new Error(`${label}: the fetched tarball's ${wanted[1]} is ${actual}, package-lock.json says ${wanted[2]}`);
}
