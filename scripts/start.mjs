// What `npm start` runs: install deps if needed, rebuild if stale, then run START_COMMAND.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensureDeps.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Node arguments of what `npm start` runs: the desktop demo on a private virtual display.
const START_COMMAND = ['dist/cli.js', 'demo'];

const BUILD_OUTPUT = join(root, 'dist/cli.js');
// A change to the bundler settings makes the output stale as well.
const BUILD_INPUTS = [join(root, 'src'), join(root, 'esbuild.config.mjs')];

/** Newest mtime under `path` (a file or a directory tree); 0 when it does not exist. */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs; // covers deleted files
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function needsBuild() {
  if (!existsSync(BUILD_OUTPUT)) return true;
  const built = statSync(BUILD_OUTPUT).mtimeMs;
  return BUILD_INPUTS.some((input) => newestMtime(input) > built);
}

function runNode(args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

ensureDeps();
if (needsBuild()) {
  console.log('start: building (dist/cli.js is missing or older than src/)');
  const status = runNode(['esbuild.config.mjs']);
  if (status !== 0) process.exit(status);
}
process.exit(runNode(START_COMMAND));
