// Opens a .vsix and checks every native binary in it against the package's target: each file
// named like one (*.node, *.dll, *.so*, *.dylib, *.exe) and each file that starts with an ELF,
// PE or Mach-O header must be built for the target's OS and CPU, so no other platform's binary
// rides along and none of the target's is missing its header.
import { createRequire } from 'node:module';
import { readBinaryHeader } from './binaryHeaders.mjs';

const require = createRequire(import.meta.url);
const NATIVE_NAME = /\.(node|dll|dylib|exe)$|\.so(\.\d+)*$/i;
/** Slices a universal Mach-O may carry besides the target's own. */
const MAC_SLICES = ['x64', 'arm64'];

/** `linux-x64` -> { os: 'linux', arch: 'x64' }. */
export function parseTarget(target) {
  const match = /^(linux|win32|darwin)-(x64|arm64)$/.exec(target);
  if (!match) throw new Error(`unknown target ${target}: expected linux-x64, linux-arm64, win32-x64, win32-arm64, darwin-x64 or darwin-arm64`);
  return { os: match[1], arch: match[2] };
}

/** What is wrong with one file's header for `target` (undefined: it fits). */
export function headerProblem(header, target) {
  const { os, arch } = parseTarget(target);
  if (header.error) return header.error;
  if (header.os !== os) return `${header.description} is a ${header.os} binary, not ${os}`;
  if (!header.archs.includes(arch)) return `${header.description} has no ${arch} code`;
  const strangers = header.archs.filter((other) => other !== arch && !(os === 'darwin' && MAC_SLICES.includes(other)));
  if (strangers.length) return `${header.description} carries ${strangers.join(', ')}, which ${target} does not run`;
  return undefined;
}

/** Classifies one file: undefined when it is neither named nor shaped like a native binary. */
export function checkFile(name, bytes, target) {
  const header = readBinaryHeader(bytes);
  if (!header) return NATIVE_NAME.test(name) ? { name, format: 'unknown', archs: [], problem: 'named like a native binary but has no ELF, PE or Mach-O header' } : undefined;
  const problem = headerProblem(header, target);
  return { name, format: header.format, archs: header.archs ?? [], description: header.description ?? header.error, ...(problem ? { problem } : {}) };
}

/** Every native file of the .vsix at `vsixPath` checked against `target`: { target, files, problems }. */
export async function checkVsix(vsixPath, target) {
  parseTarget(target);
  const files = [];
  await eachEntry(vsixPath, (name, bytes) => {
    const file = checkFile(name.replace(/^extension\//, ''), bytes, target);
    if (file) files.push(file);
  });
  files.sort((a, b) => a.name.localeCompare(b.name));
  const problems = files.filter((file) => file.problem).map((file) => `${file.name}: ${file.problem}`);
  return { target, files, problems };
}

/** The checker's report: one line per native file with its format and arch, then the problems. */
export function formatCheck(check) {
  const lines = [`native files for ${check.target}: ${check.files.length}, ${check.problems.length ? `${check.problems.length} wrong` : 'all match'}`];
  for (const file of check.files) lines.push(`  ${file.problem ? 'WRONG' : 'ok   '} ${file.name}: ${file.description ?? file.format}${file.problem ? ` (${file.problem})` : ''}`);
  return lines.join('\n');
}

/** The bytes of one entry of a .vsix (e.g. extension.vsixmanifest), or undefined. */
export async function readVsixFile(vsixPath, entryName) {
  let found;
  await eachEntry(vsixPath, (name, bytes) => {
    if (name === entryName) found = bytes;
  });
  return found;
}

async function eachEntry(vsixPath, onFile) {
  const yauzl = require('yauzl');
  const zip = await new Promise((resolve, reject) => yauzl.open(vsixPath, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))));
  try {
    await new Promise((resolve, reject) => {
      zip.on('error', reject).on('end', resolve);
      zip.on('entry', (entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (error, stream) => {
          if (error) return reject(error);
          const chunks = [];
          stream.on('data', (chunk) => chunks.push(chunk)).on('error', reject).on('end', () => {
            try {
              onFile(entry.fileName, Buffer.concat(chunks));
              zip.readEntry();
            } catch (failure) {
              reject(failure);
            }
          });
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}
