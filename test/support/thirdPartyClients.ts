// MCP clients nobody here wrote, installed from the npm registry for the tests that drive GAI
// through them (the VS Code host is installed the same way: once per machine, into the cache).
// Pinned versions; a machine that cannot reach the registry skips those tests, saying why.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const CODEX_VERSION = '0.171.0';

/** The Codex CLI's launcher (run with node), or why there is none. */
export function ensureCodex(): { launcher: string } | { skip: string } {
  const folder = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gai-test-clients', `codex-${CODEX_VERSION}`);
  const launcher = join(folder, 'node_modules', '@openai', 'codex', 'bin', 'codex.js');
  const native = join(folder, 'node_modules', '@openai', `codex-${process.platform}-${process.arch}`);
  if (existsSync(launcher) && existsSync(native)) return { launcher };
  mkdirSync(folder, { recursive: true });
  // About 170 MB the first time (the native binary for this platform only).
  const installed = spawnSync('npm', ['install', '--prefix', folder, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `@openai/codex@${CODEX_VERSION}`], { encoding: 'utf8', timeout: 600_000 });
  if (installed.status === 0 && existsSync(launcher) && existsSync(native)) return { launcher };
  const why = (installed.stderr || installed.error?.message || `npm exited with ${installed.status}`).trim().split('\n').slice(-3).join(' ');
  return { skip: `Codex ${CODEX_VERSION} could not be installed from the npm registry: ${why}` };
}
