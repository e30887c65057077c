import type { Command } from 'commander';
import { GaiError, isGaiError } from '../../common/errors';
import { err, EXIT, out, type CliIo } from '../../common/cliIo';
import { appKey, defaultDenialCategory } from '../../safety/appNames';
import { JsonFileAppPermissionStore, type StoredAppDecision } from '../../safety/appPermissionStore';
import { appPermissionsFile } from '../../app/gaiFiles';

// `gai apps allow|deny|list|forget`: the person's "always" and "never" answers to "Allow GAI to
// act in <app>?", in the same file the terminal prompt and `gai mcp`'s question keep them, so an
// app can be allowed ahead of time (an MCP client that cannot ask says to run this).

const MAX_NAME_LENGTH = 200;
const EXAMPLE = "give the application's name as its window reports it, e.g. galculator or org.gnome.Calculator";

export function registerAppsCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const store = (): JsonFileAppPermissionStore => new JsonFileAppPermissionStore(appPermissionsFile(io.env));

  /** Runs an action; bad input and an unreadable file become a message and an exit code. */
  const run =
    <A extends unknown[]>(action: (...args: A) => Promise<number>) =>
    async (...args: A): Promise<void> => {
      try {
        setExit(await action(...args));
      } catch (error) {
        if (!isGaiError(error)) throw error;
        err(io, `gai apps: ${error.message}\n`);
        setExit(error.code === 'INVALID_INPUT' || error.code === 'CONFIG' ? EXIT.usage : EXIT.failed);
      }
    };

  const apps = program.command('apps').description('allow or deny GAI acting in an application ahead of time, list and forget those decisions');
  const name = '<name>';
  const nameHelp = "the application's name as its window reports it (WM_CLASS), e.g. galculator";

  apps
    .command('allow')
    .description('GAI may always act in this application (no question asked)')
    .argument(name, nameHelp)
    .action(
      run(async (raw: string) => {
        const key = parseAppName(raw);
        const category = defaultDenialCategory(key);
        if (category) {
          throw new GaiError('INVALID_INPUT', `name: ${key} is one of the ${category} GAI never acts in by default; only naming it in apps.allow of the config file lifts that`);
        }
        return decide(key, 'always', `GAI may act in ${key}`);
      }),
    );

  apps
    .command('deny')
    .description('GAI never acts in this application (no question asked)')
    .argument(name, nameHelp)
    .action(
      run(async (raw: string) => {
        const key = parseAppName(raw);
        return decide(key, 'never', `GAI will not act in ${key}`);
      }),
    );

  apps
    .command('forget')
    .description('forget the decision for this application: GAI asks again next time')
    .argument(name, nameHelp)
    .action(
      run(async (raw: string) => {
        const key = parseAppName(raw);
        const permissions = store();
        if (!(await permissions.forget(key))) {
          err(io, `gai apps: no decision is kept for ${key} (gai apps list shows them)\n`);
          return EXIT.failed;
        }
        out(io, `Forgot the decision for ${key}: GAI asks again next time (${permissions.file}).\n`);
        return EXIT.ok;
      }),
    );

  apps
    .command('list')
    .description('the applications GAI always or never acts in')
    .option('--json', 'print them as JSON')
    .action(
      run(async (options: { json?: boolean }) => {
        const permissions = store();
        const decided = Object.entries(await permissions.all())
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([app, decision]) => ({ app, decision }));
        if (options.json) out(io, `${JSON.stringify({ file: permissions.file, apps: decided }, null, 2)}\n`);
        else if (decided.length === 0) out(io, `No decisions kept yet (${permissions.file}).\n`);
        else out(io, `${decided.map((d) => `${d.decision.padEnd(7)} ${d.app}`).join('\n')}\n(kept in ${permissions.file})\n`);
        return EXIT.ok;
      }),
    );

  async function decide(key: string, decision: StoredAppDecision, what: string): Promise<number> {
    const permissions = store();
    await permissions.set(key, decision);
    out(io, `${what} (kept in ${permissions.file}).\n`);
    return EXIT.ok;
  }
}

/** The key an app is kept under; a name that cannot be an application's is refused, saying why. */
export function parseAppName(raw: string): string {
  const key = appKey(raw);
  const shown = JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw);
  if (key === '') throw new GaiError('INVALID_INPUT', `name: empty; ${EXAMPLE}`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(key)) throw new GaiError('INVALID_INPUT', `name: ${shown} contains control characters; ${EXAMPLE}`);
  if (key.length > MAX_NAME_LENGTH) throw new GaiError('INVALID_INPUT', `name: longer than ${MAX_NAME_LENGTH} characters`);
  if (/[*?]/.test(key)) throw new GaiError('INVALID_INPUT', `name: ${shown} is a pattern, not an application; patterns go in apps.allow / apps.deny of the config file`);
  if (/[/\\]/.test(key)) throw new GaiError('INVALID_INPUT', `name: ${shown} looks like a path; ${EXAMPLE}`);
  if (/^[@-]/.test(key)) throw new GaiError('INVALID_INPUT', `name: ${shown} is not an application name; ${EXAMPLE}`);
  return key;
}
