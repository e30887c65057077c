// `npm run smoke`: the built CLI on the desktop this process sees (a CI runner's own, or
// xvfb-run's): gai doctor --json must answer JSON naming this platform, a screen capture must
// succeed, and OCR must run on the screen (the words it reads are printed, not required: a
// runner's desktop may be empty). Exits non-zero with the step that failed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = join(root, 'dist', 'cli.js');

function fail(message) {
  console.error(`smoke: ${message}`);
  process.exit(1);
}

function gai(args) {
  const run = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  if (run.error) fail(`gai ${args.join(' ')}: ${run.error.message}`);
  try {
    return { code: run.status, json: JSON.parse(run.stdout), stderr: run.stderr };
  } catch {
    return fail(`gai ${args.join(' ')} did not answer JSON (exit ${run.status}): ${run.stdout.slice(0, 400)} ${run.stderr.slice(0, 400)}`);
  }
}

if (!existsSync(cli)) fail(`${cli} is missing: run npm run build first`);

const doctor = gai(['doctor', '--json']);
console.log(JSON.stringify(doctor.json, null, 2));
if (!String(doctor.json.platform ?? '').startsWith(process.platform)) fail(`gai doctor --json names platform "${doctor.json.platform}", expected ${process.platform}`);

const capture = gai(['tool', 'screen_capture', '--json', '--profile', 'read-only', '--input', '{"maxWidth":640}']);
if (capture.json.success !== true) fail(`screen_capture failed: ${JSON.stringify(capture.json).slice(0, 600)}`);
console.log(`smoke: screen_capture: ${capture.json.observation ?? 'ok'}`);

const ocr = gai(['tool', 'ocr', '--json', '--profile', 'read-only', '--input', '{"captureScreen":true}']);
if (ocr.json.success !== true) fail(`ocr failed: ${JSON.stringify(ocr.json).slice(0, 600)}`);
console.log(`smoke: ocr: ${ocr.json.observation ?? 'ok'}`);
