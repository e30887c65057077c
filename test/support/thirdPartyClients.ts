// MCP clients nobody here wrote, installed from the npm registry for the tests that drive GAI
// through them (the VS Code host is installed the same way: once per machine, into the cache).
// Pinned versions; a machine that cannot reach the registry skips those tests, saying why.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const CODEX_VERSION = '0.171.0';
export const GEMINI_CLI_VERSION = '0.61.0';

/** The Codex CLI's launcher (run with node), or why there is none. About 170 MB the first time (this platform's binary). */
export function ensureCodex(): { launcher: string } | { skip: string } {
  return ensureClient(`@openai/codex@${CODEX_VERSION}`, ['@openai', 'codex', 'bin', 'codex.js'], ['@openai', `codex-${process.platform}-${process.arch}`]);
}

/** Gemini CLI's bundle (run with node), or why there is none. About 100 MB the first time. */
export function ensureGeminiCli(): { launcher: string } | { skip: string } {
  return ensureClient(`@google/gemini-cli@${GEMINI_CLI_VERSION}`, ['@google', 'gemini-cli', 'bundle', 'gemini.js'], []);
}

function ensureClient(spec: string, launcherPath: string[], nativePath: string[]): { launcher: string } | { skip: string } {
  const folder = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gai-test-clients', spec.replace(/^@/, '').replace(/[/@]/g, '-'));
  const launcher = join(folder, 'node_modules', ...launcherPath);
  const complete = (): boolean => existsSync(launcher) && (nativePath.length === 0 || existsSync(join(folder, 'node_modules', ...nativePath)));
  if (complete()) return { launcher };
  mkdirSync(folder, { recursive: true });
  const installed = spawnSync('npm', ['install', '--prefix', folder, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', spec], { encoding: 'utf8', timeout: 600_000 });
  if (installed.status === 0 && complete()) return { launcher };
  const why = (installed.stderr || installed.error?.message || `npm exited with ${installed.status}`).trim().split('\n').slice(-3).join(' ');
  return { skip: `${spec} could not be installed from the npm registry: ${why}` };
}

/**
 * Runs a client's launcher with node to its end, stdin closed (`codex exec` and `gemini -p` read
 * it), killed after `timeoutMs`. Not spawnSync: the scripted model answers from this process.
 */
export function runToEnd(launcher: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, timeoutMs = 120_000): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [launcher, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr });
    });
  });
}
