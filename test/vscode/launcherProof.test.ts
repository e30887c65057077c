// Proves the real-VS-Code launcher (scripts/vscodeHost/): installs the host into the cache
// outside the clone, then runs a throwaway extension's in-host mocha suite (test/vscode/hostProof)
// and checks that a passing suite exits 0, a failing one 1, and that the JSON report names the
// tests. Run alone: node --import=tsx node_modules/mocha/bin/mocha.js test/vscode/launcherProof.test.ts
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunInHostOptions, RunInHostResult } from '../../scripts/vscodeHost/run.mjs';

const ROOT = resolve(__dirname, '../..');
const INSTALL = join(ROOT, 'scripts/vscodeHost/install.mjs');
const RUNNER = join(ROOT, 'test/vscode/hostProof/index.cjs');
const RUN_TIMEOUT_MS = 90_000;

interface HostReport {
  files: string[];
  passes: { title: string }[];
  failures: { title: string; error: string }[];
}

type Launcher = typeof import('../../scripts/vscodeHost/run.mjs');

/** A minimal extension: registers `gaiHostProof.greet` on activation. */
function writeProofExtension(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name: 'gai-host-proof',
    publisher: 'gai',
    version: '0.0.1',
    engines: { vscode: '^1.100.0' },
    main: './extension.js',
    activationEvents: ['onCommand:gaiHostProof.greet'],
    contributes: { commands: [{ command: 'gaiHostProof.greet', title: 'GAI host proof: greet' }] },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(
    join(dir, 'extension.js'),
    [
      "'use strict';",
      "const vscode = require('vscode');",
      'exports.activate = (context) => {',
      "  context.subscriptions.push(vscode.commands.registerCommand('gaiHostProof.greet', (name) => `hello ${name ?? 'world'}`));",
      '};',
      'exports.deactivate = () => {};',
      '',
    ].join('\n'),
  );
}

describe('VS Code host launcher (real extension host)', function () {
  // Cold install ~2 min (warm: instant), then 7-10 s a run.
  this.timeout(10 * 60_000);

  let launcher: Launcher;
  let work: string;
  let extensionPath: string;

  before(async function () {
    const installed = spawnSync(process.execPath, [INSTALL], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.equal(installed.status, 0, `install.mjs failed:\n${installed.stdout}${installed.stderr}`);
    // A dynamic import: run.mjs is an ES module with top-level await, which require() cannot load.
    launcher = (await import('../../scripts/vscodeHost/run.mjs')) as Launcher;
    work = mkdtempSync(join(tmpdir(), 'gai-launcher-proof-'));
    extensionPath = join(work, 'extension');
    writeProofExtension(extensionPath);
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function runProof(tests: string): Promise<{ result: RunInHostResult; report: HostReport }> {
    const reportPath = join(work, `report-${tests}.json`);
    const options: RunInHostOptions = {
      extensionPath,
      testsPath: RUNNER,
      timeoutMs: RUN_TIMEOUT_MS,
      env: { GAI_HOST_REPORT: reportPath, GAI_HOST_TESTS: tests },
    };
    const result = await launcher.runInHost(options);
    let report: HostReport;
    try {
      report = JSON.parse(readFileSync(reportPath, 'utf8')) as HostReport;
    } catch (error) {
      assert.fail(`no report at ${reportPath} (${String(error)}); host log:\n${result.logs.slice(-60).join('\n')}`);
    }
    // The server's process group (extension host included) is gone once runInHost returns.
    assert.deepEqual(launcher.livingInGroup(result.serverPid), [], 'processes of the VS Code server outlived the run');
    return { result, report };
  }

  it('exits 0 when the in-host test passes, and the report names it', async () => {
    const { result, report } = await runProof('passing.spec.cjs');
    assert.equal(result.exitCode, 0, `host log:\n${result.logs.slice(-60).join('\n')}`);
    assert.deepEqual(report.failures, []);
    assert.deepEqual(
      report.passes.map((test) => test.title),
      ['host proof executes the proof extension command'],
    );
  });

  it('exits 1 when the in-host test fails, and the report names the failure', async () => {
    const { result, report } = await runProof('failOnPurpose.cjs');
    assert.equal(result.exitCode, 1, `host log:\n${result.logs.slice(-60).join('\n')}`);
    assert.deepEqual(report.passes, []);
    assert.deepEqual(
      report.failures.map((test) => test.title),
      ['host proof fails on purpose'],
    );
    assert.match(report.failures[0]?.error ?? '', /hello host/);
  });
});
