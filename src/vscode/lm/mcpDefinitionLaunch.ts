// How the editor starts GAI's MCP server (`gai mcp`, bundled as dist/mcpServer.js): on the
// editor's own Node, so nothing needs installing. No vscode import: unit-tested directly.
import * as path from 'node:path';
import type { Provider } from '../../model/modelConfig';
import type { ToolProfile } from '../../runtime/toolPolicy';
import { apiKeyEnvVar } from '../setup/errorWording';

export interface McpServerLaunch {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Changes with the profile: the editor then offers to refresh the server's tools. */
  version: string;
}

export interface McpLaunchSources {
  extensionPath: string;
  /** process.execPath: Electron in desktop VS Code, node in a Node-based server (code-server, remote). */
  execPath: string;
  /** process.versions.electron is set: the binary must be told to run as plain Node. */
  electron: boolean;
  profile: ToolProfile;
  /** The extension's brain, so the server replays the paths the chat learned (and learns into it). */
  brainDir: string;
  extensionVersion: string;
  /** Where the server works (gai.desktop): GAI's own desktop is the one the chat's live view shows. */
  desktop?: 'screen' | 'own';
}

export const MCP_SERVER_SCRIPT = path.join('dist', 'mcpServer.js');

export function gaiMcpServerLaunch(sources: McpLaunchSources): McpServerLaunch {
  return {
    label: 'GAI desktop tools',
    command: sources.execPath,
    args: [path.join(sources.extensionPath, MCP_SERVER_SCRIPT), ...(sources.desktop === 'own' ? ['--desktop', 'own'] : []), '--profile', sources.profile],
    env: { ...(sources.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}), GAI_BRAIN_DIR: sources.brainDir },
    version: `${sources.extensionVersion}-${sources.profile}${sources.desktop === 'own' ? '-own' : ''}`,
  };
}

/**
 * What the server needs of the person's model settings at start (learning a new path asks the
 * model): the key from SecretStorage under its provider's variable, and the base URL when set.
 */
export function modelEnv(provider: Provider, apiKey: string | undefined, baseUrl: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  if (apiKey) env[apiKeyEnvVar(provider)] = apiKey;
  if (baseUrl && provider === 'anthropic') env.ANTHROPIC_BASE_URL = baseUrl;
  if (baseUrl && provider === 'openai') env.OPENAI_BASE_URL = baseUrl;
  return env;
}
