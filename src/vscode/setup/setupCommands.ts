// First run and setup (issue 12): the welcome's setup state, re-sent whenever the settings or the
// key change, and the self-check (GAI: Check Setup): display, nut-js, sharp, OCR, accessibility,
// and whether the configured model answers a one-token request.
import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import type { Provider } from '../../model/modelConfig';
import type { SetupReport } from '../../platform/setupCheck';
import { resolveLlmConfig } from '../../model/llmConfig';
import type { SetupCheckView, WelcomeView } from '../../shared/protocol';
import { VERIFICATION_WORDS } from '../../platform/platformSupport';
import type { ApiKeyStore } from './apiKeyStore';
import { apiKeyEnvVar, wordError } from './errorWording';
import type { GaiController } from '../gaiController';
import { chooseModel } from './modelChooser';
import { keyState, welcomeView, type MachineExamples } from './setupState';

type Item = SetupCheckView['items'][number];

export interface SetupDeps {
  controller: GaiController;
  keys: ApiKeyStore;
  examples: MachineExamples;
  env: NodeJS.ProcessEnv;
  /** The library self-check (src/platform/setupCheck.ts), loaded on use. */
  checkLibraries: (language: string) => Promise<SetupReport>;
}

export class SetupCommands implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  /** The newest self-check, for tests and the extension API. */
  lastCheck?: SetupCheckView;

  constructor(private readonly deps: SetupDeps) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('gai')) void this.postWelcome();
      }),
      deps.keys.onDidChange(() => void this.postWelcome()),
      vscode.commands.registerCommand('gai.chooseModel', () => chooseModel(deps.controller.logger)),
      vscode.commands.registerCommand('gai.checkSetup', () => this.check()),
      vscode.commands.registerCommand('gai.copyKeyLine', () => this.copyKeyLine()),
    );
  }

  /**
   * Where SecretStorage lives only in memory (VS Code for the Web), the way to keep the key: the
   * shell line that sets its variable, copied with the stored key in it (a placeholder without).
   */
  async copyKeyLine(): Promise<string> {
    const variable = apiKeyEnvVar(this.providerAndModel().provider);
    const key = await this.deps.keys.get();
    const line = `export ${variable}=${shellQuoted(key ?? 'your-api-key')}`;
    await vscode.env.clipboard.writeText(line);
    void vscode.window.showInformationMessage(
      `GAI: copied the line that sets ${variable}${key ? ' (with your key)' : ''}. Add it to the shell profile (~/.profile) of the machine VS Code's server runs on and restart the server: GAI then finds the key after every reload.`,
    );
    return variable;
  }

  /** The setup state; a bad setting shows the defaults' provider, the error says the rest when sending. */
  async welcome(): Promise<WelcomeView> {
    const { provider, model } = this.providerAndModel();
    const stored = (await this.deps.keys.get()) !== undefined;
    const key = keyState(provider, stored, this.deps.env, this.deps.keys.storageNote(apiKeyEnvVar(provider)));
    const view = welcomeView({ provider, ...(model ? { model } : {}), key, examples: await this.deps.examples.get() });
    // A key kept only in memory is lost at the next reload: one click copies the way to keep it.
    const needsKey = provider !== 'vscode-lm' && provider !== 'ollama';
    return this.deps.keys.memoryOnly && needsKey && !this.deps.env[apiKeyEnvVar(provider)] ? { ...view, keepInEnvironment: apiKeyEnvVar(provider) } : view;
  }

  async postWelcome(): Promise<void> {
    try {
      this.deps.controller.webview?.post({ type: 'welcome', welcome: await this.welcome() });
    } catch (error) {
      this.deps.controller.logger.warn(`welcome: ${errorMessage(error)}`);
    }
  }

  /** Runs every check, posting the list as it fills; returns the final view. */
  async check(): Promise<SetupCheckView> {
    const items: Item[] = [];
    const post = (running: boolean): void => {
      this.lastCheck = { running, items: [...items] };
      this.deps.controller.webview?.post({ type: 'setupCheck', check: this.lastCheck });
    };
    post(true);
    const language = this.setting((s) => s.ocrLanguage, 'eng');
    try {
      const report = await this.deps.checkLibraries(language);
      items.push(
        { name: 'Display', ok: report.display.ok, detail: report.display.detail },
        { name: 'Mouse and keyboard (libnut)', ok: report.nut.ok, detail: report.nut.detail },
        { name: 'Images (sharp)', ok: report.sharp.ok, detail: report.sharp.detail },
        { name: `OCR (tesseract, ${report.ocr.language})`, ok: report.ocr.ok, detail: report.ocr.detail },
        { name: 'Browser accessibility trees', ok: report.browsers.ok, detail: report.browsers.detail },
        { name: 'GTK 2 accessibility trees', ok: report.gtk2.ok, detail: report.gtk2.detail },
      );
      // macOS: which permission the app GAI runs in lacks, and the System Settings pane that grants it.
      if (report.permissions) {
        const panes = report.permissions.panes.map((pane) => ` Open ${pane}`).join(';');
        items.push({ name: 'macOS permissions', ok: report.permissions.ok, detail: `${report.permissions.detail}${panes ? `.${panes}` : ''}` });
      }
      // What checks each part here: CI on real desktops, a scripted helper only, or nothing yet.
      const unproven = report.support.filter((part) => part.verified !== 'ci');
      if (unproven.length > 0) {
        items.push({ name: `Not yet run by GAI's CI on ${report.platform}`, ok: true, detail: unproven.map((part) => `${part.part}: ${VERIFICATION_WORDS[part.verified]}`).join('; ') });
      }
    } catch (error) {
      items.push({ name: 'Desktop libraries', ok: false, detail: errorMessage(error) });
    }
    post(true);
    items.push(await this.accessibilityItem());
    post(true);
    items.push(await this.modelItem());
    post(false);
    this.deps.controller.logger.info(`setup check: ${items.map((item) => `${item.name} ${item.ok ? 'ok' : 'FAILED'} (${item.detail})`).join('; ')}`);
    return this.lastCheck ?? { running: false, items };
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  /** One token through the configured provider: the key, the endpoint and the model name all answer. */
  private async modelItem(): Promise<Item> {
    const { provider, model } = this.providerAndModel();
    const name = 'Model reachable';
    try {
      const settings = this.deps.controller.settings();
      const apiKey = await this.deps.keys.get();
      const config = resolveLlmConfig({ provider: settings.provider, baseUrl: settings.baseUrl, apiKey, model: settings.model.default, maxRetries: 0, timeoutMs: 20_000, maxTokens: 1 }, this.deps.env);
      const needsKey = provider === 'anthropic' || (provider === 'openai' && settings.baseUrl === undefined) || provider === 'google';
      if (needsKey && !config.default.apiKey) return { name, ok: false, detail: `No API key for ${provider}: Set API Key, or set ${apiKeyEnvVar(provider)}.` };
      // The agent's bundle (dist/agentFactory.js) holds the SDKs; loaded on use, as for a request.
      const { askOneToken } = await import('../gaiParts');
      const started = performance.now();
      await askOneToken(config.default, vscode);
      return { name, ok: true, detail: `${config.default.model} answered in ${Math.round(performance.now() - started)} ms` };
    } catch (error) {
      this.deps.controller.logger.error(`setup check, model: ${errorMessage(error)}`);
      return { name, ok: false, detail: `${model ?? provider}: ${wordError(error, { provider, attempts: 1 }).text}` };
    }
  }

  /** Asks the desktop's accessibility port itself (the AT-SPI bridge), as get_element_tree would. */
  private async accessibilityItem(): Promise<Item> {
    const name = 'Accessibility tree (AT-SPI)';
    if (process.platform !== 'linux') return { name, ok: false, detail: `AT-SPI is Linux's; not available on ${process.platform}` };
    try {
      const parts = await this.deps.controller.getParts();
      const port = parts.desktop.desktop.accessibility;
      if (!port) return { name, ok: false, detail: 'this desktop has no accessibility adapter' };
      const ok = await port.available();
      return ok
        ? { name, ok, detail: 'the accessibility bus answers' }
        : { name, ok, detail: 'no accessibility bus answers (python3-gi, gir1.2-atspi-2.0 and at-spi2-core are needed): get_element_tree cannot read applications, OCR still works' };
    } catch (error) {
      return { name, ok: false, detail: errorMessage(error) };
    }
  }

  private providerAndModel(): { provider: Provider; model?: string } {
    const provider = this.setting((s) => s.provider, 'anthropic' as const);
    const model = this.setting((s) => s.model.default, undefined);
    return model ? { provider, model } : { provider };
  }

  private setting<T>(pick: (settings: ReturnType<GaiController['settings']>) => T, fallback: T): T {
    try {
      return pick(this.deps.controller.settings());
    } catch {
      return fallback;
    }
  }
}

/** Single-quoted for a POSIX shell: a quote inside is closed, escaped and reopened. */
function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
