import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedMessagesServer } from '../../support/scriptedMessagesServer';
import { startPagesApp, type PagesApp } from '../../support/pagesFixture';
import { BUILT_CLI, runBuiltCli, type CliOutcome } from './builtCli';
import type { SuiteDisplay } from './fixture';

// The built CLI against the pages app and a scripted Messages API server, with a home of its
// own (config and data folders), as the navigation tests use it.

export interface PagesCliRig {
  server: ScriptedMessagesServer;
  app: PagesApp;
  home: string;
  gai(args: string[], env?: Record<string, string>): Promise<CliOutcome>;
  close(): Promise<void>;
}

export interface PagesCliOptions {
  prefix: string;
  apiKey: string;
  timeoutMs: number;
  /** Written as the CLI's config file. */
  config?: Record<string, unknown>;
}

export async function startPagesCliRig(display: SuiteDisplay, options: PagesCliOptions): Promise<PagesCliRig> {
  if (!existsSync(BUILT_CLI)) throw new Error('dist/cli.js is missing: npm test builds it before the suites');
  const home = mkdtempSync(join(tmpdir(), options.prefix));
  if (options.config) {
    mkdirSync(join(home, 'config', 'gai'), { recursive: true });
    writeFileSync(join(home, 'config', 'gai', 'config.json'), JSON.stringify(options.config));
  }
  const server = await ScriptedMessagesServer.start();
  let app: PagesApp;
  try {
    app = await startPagesApp(display);
  } catch (error) {
    await server.close();
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
  return {
    server,
    app,
    home,
    gai: (args, env = {}) =>
      runBuiltCli(
        args,
        {
          ...display.env,
          XDG_CONFIG_HOME: join(home, 'config'),
          XDG_DATA_HOME: join(home, 'data'),
          ANTHROPIC_BASE_URL: server.baseUrl,
          ANTHROPIC_API_KEY: options.apiKey,
          ...env,
        },
        options.timeoutMs,
      ),
    async close() {
      await app.stop();
      await server.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
