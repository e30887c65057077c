// Where the CLI and `gai mcp` keep the person's files: both fronts read and write the same ones,
// so the paths are decided once, below them.
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export function defaultConfigPath(env: Record<string, string | undefined>): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'gai', 'config.json');
}

/** Where "always"/"never" answers about apps are kept: next to the default config file. */
export function appPermissionsFile(env: Record<string, string | undefined>): string {
  return join(dirname(defaultConfigPath(env)), 'app-permissions.json');
}

/** Where `gai mcp --http` keeps its bearer token across restarts (mode 600), unless --token-file says. */
export function mcpTokenFile(env: Record<string, string | undefined>): string {
  return join(dirname(defaultConfigPath(env)), 'mcp-token');
}
