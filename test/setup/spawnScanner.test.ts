// The spawn scanner on small synthetic trees: what it follows, and what it reports as unknown.
import * as assert from 'node:assert/strict';
import { shellCommands } from './shellScripts';
import { scanSpawns, type ScannedFile } from './spawnScanner';

const file = (filePath: string, ...lines: string[]): ScannedFile => ({ path: filePath, text: lines.join('\n') + '\n' });
const commands = (files: ScannedFile[]): string[] => [...new Set(scanSpawns(files).uses.map((u) => u.command))].sort();

describe('external programs: the spawn scanner', function () {
  // The first call loads the TypeScript compiler.
  this.timeout(30_000);

  it('reads string literals, absolute paths (by base name) and process.execPath', function () {
    const scan = scanSpawns([
      file(
        'src/a.ts',
        "import { spawn, execFileSync as run } from 'node:child_process';",
        "spawn('xdotool', ['key', 'a']);",
        "run('/usr/bin/python3', ['-c', 'pass']);",
        'spawn(process.execPath, []);',
      ),
    ]);
    assert.deepEqual(scan.uses.map((u) => `${u.command} ${u.file}:${u.line}`).sort(), ['node src/a.ts:4', 'python3 src/a.ts:3', 'xdotool src/a.ts:2']);
    assert.deepEqual(scan.unresolved, []);
  });

  it('follows promisify, require, namespaces, constants, conditionals and `??` fallbacks', function () {
    assert.deepEqual(
      commands([
        file(
          'src/b.ts',
          "import { execFile } from 'node:child_process';",
          "import * as cp from 'child_process';",
          "import { promisify } from 'node:util';",
          'const run = promisify(execFile);',
          "const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';",
          "run('xprop', []);",
          'cp.spawnSync(PYTHON, []);',
          "export function ocr(options: { command?: string }) { const command = options.command ?? 'tesseract'; return execFile(command, []); }",
        ),
        file('scripts/c.mjs', "const { spawnSync } = require('node:child_process');", "spawnSync('dpkg', ['-s', 'x']);"),
      ]),
      ['dpkg', 'python3', 'tesseract', 'xprop'],
    );
  });

  it('follows wrappers to their callers, across files, and fields to what the class assigns', function () {
    const scan = scanSpawns([
      file(
        'test/support/x11.ts',
        "import { execFile } from 'node:child_process';",
        'export function x11(env: object, command: string, args: string[]) { return execFile(command, args, { env }); }',
        "function local(command: string) { return execFile(command, []); }",
        "local('xwininfo');",
      ),
      file('test/desktop/uses.test.ts', "import { x11 as run } from '../support/x11';", "run({}, 'xdotool', ['getmouselocation']);"),
      file(
        'src/d.ts',
        "import { spawn } from 'node:child_process';",
        'class Reader {',
        '  private readonly python: string;',
        "  constructor(python?: string) { this.python = python ?? 'python3'; }",
        '  go() { return spawn(this.python, []); }',
        '}',
        "function npmInstall({ dir, nodeBinary = process.execPath }: { dir: string; nodeBinary?: string }) { spawn(nodeBinary, [dir]); }",
        "npmInstall({ dir: 'a' });",
        "npmInstall({ dir: 'b', nodeBinary: 'node24' });",
      ),
    ]);
    const at = (command: string): string | undefined => scan.uses.find((u) => u.command === command)?.file;
    assert.equal(at('xdotool'), 'test/desktop/uses.test.ts', 'located where the name is written, in the caller');
    assert.equal(at('xwininfo'), 'test/support/x11.ts');
    assert.equal(at('python3'), 'src/d.ts');
    assert.ok(at('node') && at('node24'), 'a destructured parameter: its default and what a caller passes');
    assert.deepEqual(scan.unresolved, []);
  });

  it('reads the programs of an `sh -c` script, leaving shell builtins and variables out', function () {
    assert.deepEqual(
      commands([
        file(
          'src/e.ts',
          "import { spawn } from 'node:child_process';",
          "const script = 'parent=$1; while kill -0 \"$parent\"; do sleep 1; done; ' + 'if [ -n \"$2\" ]; then rm -rf -- \"$2\"; fi';",
          "const args = ['-c', script, 'name'];",
          "spawn('sh', args);",
          "spawn('sh', ['-c', 'readlink -f \"$(command -v npm)\"']);",
        ),
      ]),
      ['npm', 'readlink', 'rm', 'sh', 'sleep'],
    );
    assert.deepEqual(shellCommands('FOO=1 exec galculator --x; echo done | grep d'), ['galculator', 'grep']);
  });

  it('reports what it cannot name with file, line and expression, and ignores other exec() methods', function () {
    const scan = scanSpawns([
      file(
        'src/f.ts',
        "import { spawn } from 'node:child_process';",
        "const [command, ...args] = entry.exec.split(' ');",
        'spawn(command, args);',
        'spawn(`${dir}/tool`, []);',
        "/x/.exec('not a process');",
        'browser.launch({ executablePath: paths.chromium });',
      ),
    ]);
    assert.deepEqual(scan.uses, []);
    assert.deepEqual(
      scan.unresolved.map((u) => `${u.file}:${u.line} ${u.expression}`),
      ['src/f.ts:3 command', 'src/f.ts:4 `${dir}/tool`', 'src/f.ts:6 paths.chromium'],
    );
  });

  it('does not parse files that cannot start a program', function () {
    // A syntax error in a file without child_process is never looked at.
    assert.deepEqual(commands([file('src/g.ts', 'const = = ;'), file('src/h.ts', "import { spawn } from 'child_process';", "spawn('xvfb-run', []);")]), ['xvfb-run']);
  });
});
