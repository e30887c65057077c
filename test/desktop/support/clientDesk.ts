// What a test of a third-party MCP client (Codex, Gemini CLI) starts from: galculator on the suite
// display and a HOME of the test's own, where `gai apps allow galculator` was run as the README
// tells a person to (the clients pass HOME on to `gai mcp`, so GAI finds the answer there).
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuiltCli } from './builtCli';
import type { SuiteDisplay } from './fixture';

export interface ClientDesk {
  home: string;
  /** The person's environment for the client: the suite display, HOME the test's own. */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** Undefined when galculator is not installed (the test skips). */
export async function clientDesk(display: SuiteDisplay, prefix: string): Promise<ClientDesk | undefined> {
  if (spawnSync('sh', ['-c', 'command -v galculator'], { env: display.env }).status !== 0) return undefined;
  const home = mkdtempSync(join(tmpdir(), prefix));
  const appEnv: NodeJS.ProcessEnv = { ...display.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GSETTINGS_BACKEND: 'memory' };
  delete appEnv.AT_SPI_BUS_ADDRESS;
  delete appEnv.NO_AT_BRIDGE;
  const calculator: ChildProcess = spawn('galculator', [], { env: appEnv, stdio: 'ignore' });
  const env: NodeJS.ProcessEnv = { ...display.env, HOME: home };
  delete env.XDG_CONFIG_HOME;
  const allowed = await runBuiltCli(['apps', 'allow', 'galculator'], env);
  assert.equal(allowed.code, 0, allowed.stderr);
  return {
    home,
    env,
    stop: async () => {
      if (calculator.exitCode === null) calculator.kill('SIGTERM');
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * Codex's home for a test: its model a scripted Responses server at `modelBaseUrl`, and GAI's MCP
 * server from a README snippet, answered as the README says for `codex exec` (no person to answer
 * Codex's question). Returns CODEX_HOME.
 */
export function writeCodexHome(home: string, modelBaseUrl: string, readmeSnippet: string): string {
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  const server = readmeSnippet.replace('default_tools_approval_mode = "prompt"', 'default_tools_approval_mode = "approve"');
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model = "scripted-model"\nmodel_provider = "scripted"\n\n[model_providers.scripted]\nname = "scripted"\nbase_url = "${modelBaseUrl}"\nwire_api = "responses"\nenv_key = "SCRIPTED_KEY"\n\n${server}`,
  );
  return codexHome;
}
