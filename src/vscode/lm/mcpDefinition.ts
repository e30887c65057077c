// Offers GAI's MCP server to the editor (`contributes.mcpServerDefinitionProviders`), for agents
// in VS Code that prefer MCP over the language model tools. The server runs on the editor's Node.
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { DEFAULT_TOOL_PROFILE } from '../../runtime/toolPolicy';
import { desktopIn, type GaiSettings } from '../settings';
import { gaiMcpServerLaunch, modelEnv, MCP_SERVER_SCRIPT } from './mcpDefinitionLaunch';

/** The id in package.json's `mcpServerDefinitionProviders`. */
export const MCP_PROVIDER_ID = 'gai.mcpServer';

export interface McpDefinitionSources {
  extensionPath: string;
  extensionVersion: string;
  brainDir: string;
  /** Throws a CONFIG GaiError naming a bad setting. */
  settings(): GaiSettings;
  apiKey(): Promise<string | undefined>;
}

export class GaiMcpDefinitions implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly watch: vscode.Disposable;

  constructor(private readonly sources: McpDefinitionSources) {
    this.watch = vscode.workspace.onDidChangeConfiguration((event) => {
      if (['gai.toolProfile', 'gai.provider', 'gai.baseUrl', 'gai.desktop'].some((key) => event.affectsConfiguration(key))) this.changed.fire();
    });
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    // Called eagerly by the editor: a bad setting is reported when the server starts (resolve), not here.
    let profile = DEFAULT_TOOL_PROFILE;
    let desktop: 'screen' | 'own' = 'screen';
    try {
      const settings = this.sources.settings();
      profile = settings.toolProfile;
      desktop = desktopIn(settings.desktop, process.env);
    } catch {
      // resolveMcpServerDefinition throws the setting's error.
    }
    const launch = gaiMcpServerLaunch({ ...this.launchSources(), profile, desktop });
    return [new vscode.McpStdioServerDefinition(launch.label, launch.command, launch.args, launch.env, launch.version)];
  }

  async resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): Promise<vscode.McpStdioServerDefinition> {
    const settings = this.sources.settings();
    const script = vscode.Uri.joinPath(vscode.Uri.file(this.sources.extensionPath), MCP_SERVER_SCRIPT).fsPath;
    if (!existsSync(script)) throw new Error(`GAI's MCP server is not built: ${script} is missing (run "npm run build" in the extension's folder).`);
    const launch = gaiMcpServerLaunch({ ...this.launchSources(), profile: settings.toolProfile, desktop: desktopIn(settings.desktop, process.env) });
    server.command = launch.command;
    server.args = launch.args;
    server.env = { ...launch.env, ...modelEnv(settings.provider, await this.sources.apiKey(), settings.baseUrl) };
    return server;
  }

  dispose(): void {
    this.watch.dispose();
    this.changed.dispose();
  }

  private launchSources(): { extensionPath: string; execPath: string; electron: boolean; brainDir: string; extensionVersion: string } {
    return { extensionPath: this.sources.extensionPath, execPath: process.execPath, electron: process.versions.electron !== undefined, brainDir: this.sources.brainDir, extensionVersion: this.sources.extensionVersion };
  }
}
