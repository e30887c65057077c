// What of each runtime package ships in a target's .vsix: everything a package may load at run
// time, for that target only. Each rule removes what GAI provably never loads there; the
// packaged-extension test exercises what is left, and checkVsix.mjs checks the binaries.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { readBinaryHeader } from './binaryHeaders.mjs';
import { headerProblem, parseTarget } from './checkVsix.mjs';

export const LICENSE_FILE = /^(licen[cs]e|notice|copying)/i;
/** Folders no package loads at run time. */
const NEVER_LOADED_DIR = /(^|\/)(test|tests|__tests__|example|examples|docs|\.github)(\/|$)/;

/** Is the file at `sourcePath` a native binary built for `target`? */
export function binaryFitsTarget(sourcePath, target) {
  const header = readBinaryHeader(readFileSync(sourcePath));
  return Boolean(header) && !headerProblem(header, target);
}

/**
 * Package-specific pruning: ({ path inside the package, isDir, name, target, os, source }) =>
 * keep it?
 */
const PACKAGE_RULES = [
  {
    // The *.wasm.js files embed the wasm as base64 for browsers; Node loads *.js + *.wasm.
    // All six cores stay: getCore picks relaxed SIMD, SIMD or plain by CPU, and tesseract.js
    // 7.0's node getCore is handed a boolean where it tests for an OEM, so despite
    // OEM.LSTM_ONLY it loads the full (non-lstm) cores (the packaged-extension test caught it).
    match: (name) => name === 'tesseract.js-core',
    keep: ({ path }) => !path.endsWith('.wasm.js'),
  },
  {
    // tesseractJsOcr.ts reads the 4.0.0_best_int data; 4.0.0 is the larger, slower model.
    match: (name) => name.startsWith('@tesseract.js-data/'),
    keep: ({ path }) => !path.startsWith('4.0.0/') && path !== '4.0.0',
  },
  // Browser bundles: Node loads tesseract.js from src/ and jimp from dist/.
  { match: (name) => name === 'tesseract.js', keep: ({ path }) => !/^dist(\/|$)/.test(path) },
  { match: (name) => name === 'jimp', keep: ({ path }) => !/^browser(\/|$)/.test(path) },
  // C++ sources for building from source; the prebuilt addon comes from @img/sharp-<platform>.
  { match: (name) => name === 'sharp', keep: ({ path }) => !/^src(\/|$)/.test(path) },
  {
    // libnut requires only the running OS's package; the others stay as bare manifests because
    // npm (and so vsce) wants every declared dependency present. Of the target OS's build
    // folder only the addon and the DLLs beside it (Windows' C++ runtime), and only when they
    // are built for the target's CPU: libnut-linux and libnut-win32 hold x64 only, so the arm64
    // packages carry no addon and nut-js fails to load there (docs/packaging.md).
    match: (name) => /^@nut-tree-fork\/libnut-(darwin|linux|win32)$/.test(name),
    keep: ({ path, isDir, name, os, target, source }) => {
      if (!name.endsWith(`-${os}`)) return path === 'package.json' || LICENSE_FILE.test(path);
      if (!path.startsWith('build') || isDir) return true;
      return /^build\/Release\/[^/]+\.(node|dll)$/.test(path) && binaryFitsTarget(source, target);
    },
  },
  // Only tesseract.js's browser worker requires zlibjs (Node's own zlib serves the node one);
  // of its many builds keep the package's main.
  { match: (name) => name === 'zlibjs', keep: ({ path }) => path === 'package.json' || path === 'bin' || path === 'bin/node-zlib.js' || LICENSE_FILE.test(path) },
  // clipboardy's fallbacks are an x64 Linux xsel and x64 / x86 Windows programs: only the
  // target's own ride along (clipboardy picks x86_64 on x64 Windows).
  { match: (name) => name === 'clipboardy', keep: ({ path, isDir, target, source }) => !path.startsWith('fallbacks/') || isDir || binaryFitsTarget(source, target) },
];

/** Does `path` (inside package `name`, copied from `source`) ship in `target`'s package? */
export function keepInPackage({ name, path, isDir, target, source }) {
  const file = basename(path);
  if (!isDir && (/\.map$/.test(file) || /\.d\.[cm]?ts$/.test(file))) return false;
  if (!isDir && /\.(md|markdown)$/i.test(file) && !LICENSE_FILE.test(file)) return false;
  if (NEVER_LOADED_DIR.test(path)) return false;
  const context = { name, path, isDir, target, source, os: parseTarget(target).os };
  return PACKAGE_RULES.every((rule) => !rule.match(name) || rule.keep(context));
}
