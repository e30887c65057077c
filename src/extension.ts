// The extension's composition root: small on purpose. Activation builds only the cheap parts
// (settings reader, log, commands, view, status bar); the agent, the LLM SDKs and the desktop
// tools (nut-js, tesseract) load on first use.
import * as vscode from 'vscode';
import { SecretRedactor } from './common/redact';
import { isProviderCredentialVar } from './common/secretEnv';
import { checkSetup, type SetupReport } from './platform/setupCheck';
import { ApiKeyStore } from './vscode/setup/apiKeyStore';
import { MementoAppPermissionStore } from './vscode/mementoAppPermissions';
import { ChatViewProvider } from './vscode/chat/chatViewProvider';
import { CHAT_VIEW_ID } from './vscode/chat/chatViewId';
import { registerCommands } from './vscode/commands';
import { registerRoutineCommands } from './vscode/routines/routineCommands';
import { ConversationHistory } from './vscode/chat/conversationHistory';
import { ConversationStore, type SavedConversation } from './vscode/chat/conversationStore';
import type { ChatEntry, ScreenPicture, SetupCheckView, WelcomeView } from './shared/protocol';
import { SetupCommands } from './vscode/setup/setupCommands';
import { MachineExamples } from './vscode/setup/setupState';
import { PicturePanel } from './vscode/chat/picturePanel';
import { GaiController, type RequestTimings } from './vscode/gaiController';
import { OutputChannelLogger } from './vscode/outputLogger';
import { GaiStatusBar } from './vscode/status/statusBar';
import { registerLmTools } from './vscode/lm/lmTools';
import { LmToolsRunner } from './vscode/lm/lmToolsRunner';
import { GaiMcpDefinitions, MCP_PROVIDER_ID } from './vscode/lm/mcpDefinition';
import { GaiChatParticipant } from './vscode/lm/gaiChatParticipant';
import { LiveViewPanel } from './vscode/liveView/liveViewPanel';
import { registerLiveViewCommands } from './vscode/liveView/liveViewCommands';
import { desktopIn } from './vscode/settings';

/** What activate() returns; for tests and other extensions. Never carries the API key. */
export interface GaiExtensionApi {
  activationMs: number;
  hasApiKey(): Promise<boolean>;
  /** Feeds a raw message to the chat host as if the webview had sent it; true when accepted. */
  simulateWebviewMessage(raw: unknown): boolean;
  /** Loads nut-js, sharp and tesseract.js (offline OCR of a rendered sample); touches no display. */
  checkSetup(): Promise<SetupReport>;
  /** The setup state the empty chat shows, and the newest GAI: Check Setup answer. */
  welcome(): Promise<WelcomeView>;
  lastSetupCheck(): SetupCheckView | undefined;
  /** The chat as the host keeps it (what the webview shows). */
  chatEntries(): readonly ChatEntry[];
  isRunning(): boolean;
  /** How many times a chat webview loaded its script and said it is ready. */
  webviewReadyCount(): number;
  /** The status-bar item's text. */
  statusText(): string;
  /** The newest audit lines written to the GAI output channel (newest last). */
  auditLines(): string[];
  /** The newest chat request's timings. */
  lastTimings(): RequestTimings | undefined;
  /** Where the navigation brain is kept (global storage). */
  brainDir(): string;
  /** The saved conversations, newest first, and the id of the one the chat shows. */
  savedConversations(): Promise<readonly SavedConversation[]>;
  currentConversationId(): string;
  /** Shows a screen analysis with its picture in the chat (as Read Screen does); its entry index. */
  addScreen(title: string, text: string, picture?: ScreenPicture): number;
  /** The picture tab: its title, whether its page has loaded and said ready, what it shows. */
  picturePanel(): { title: string; readyCount: number; showing?: string } | undefined;
  /** GAI's MCP server as the editor gets it from the definition provider, resolved (the key's variable named, never its value). */
  mcpServerDefinitions(): Promise<Array<{ label: string; command: string; args: string[]; env: Record<string, string | number | null>; resolvedEnvNames: string[] }>>;
  /** The @gai chat participant: its handler (for a request with a scripted model) and its newest outcome. */
  chatParticipant: Pick<GaiChatParticipant, 'handle' | 'last'>;
  /** The live view of GAI's own desktop, when open: its display, whether the person has it, what it did. */
  liveView(): LiveViewPanel['current'];
  /** As if the live view's page sent `raw`; false when refused (or no view is open). */
  simulateLiveViewMessage(raw: unknown): boolean;
  /** The person's input from the live view has reached GAI's desktop. */
  liveViewSettled(): Promise<void>;
}

export function activate(context: vscode.ExtensionContext): GaiExtensionApi {
  const started = performance.now();
  const channel = vscode.window.createOutputChannel('GAI', { log: true });
  // One redactor for the extension: the keys in use (environment, then SecretStorage when the agent
  // is built), credential shapes and gai.redact.patterns never reach the log, the chat or a message.
  const redactor = new SecretRedactor({ secrets: Object.entries(process.env).filter(([name]) => isProviderCredentialVar(name)).map(([, value]) => value) });
  const logger = new OutputChannelLogger(channel, redactor);
  // VS Code for the Web keeps SecretStorage in memory only: the key store says so instead of promising a keychain.
  const keys = new ApiKeyStore(context.secrets, vscode.env.uiKind === vscode.UIKind.Web);
  const controller = new GaiController(keys, logger, context.globalStorageUri.fsPath, redactor, new MementoAppPermissionStore(context.globalState), context.extensionUri.fsPath);
  const pictures = new PicturePanel(context.extensionUri, logger);
  const liveView = new LiveViewPanel(context.extensionUri, {
    parts: () => controller.getParts(),
    notice: (text) => controller.chat.notice(text),
    running: () => controller.running,
    onOwnDesktop: () => desktopIn(controller.settingOr((s) => s.desktop, 'screen'), process.env) === 'own',
    onDidDropParts: controller.onDidDropParts,
    onDidChangeRunning: controller.onDidChangeRunning,
  }, logger);
  const setup = new SetupCommands({ controller, keys, examples: new MachineExamples(process.env), env: process.env, checkLibraries: (language) => checkSetup({ language }) });
  const chatView = new ChatViewProvider(context.extensionUri, controller, pictures, setup);
  const history = new ConversationHistory(
    controller.chat,
    new ConversationStore(vscode.Uri.joinPath(context.globalStorageUri, 'conversations.json').fsPath, (message) => logger.warn(message)),
    (message) => logger.warn(message),
    () => controller.newConversation(),
    (turns) => controller.resume(turns),
  );
  controller.beforeNewConversation = () => history.startNew();
  const statusBar = new GaiStatusBar(controller);
  // Copilot's agent mode and other MCP clients in the editor reach the same tools, under the same rules.
  const lmTools = new LmToolsRunner({ parts: () => controller.getParts(), log: (line) => logger.info(line) });
  const mcpDefinitions = new GaiMcpDefinitions({
    extensionPath: context.extensionPath,
    extensionVersion: String((context.extension.packageJSON as { version?: unknown }).version ?? '0'),
    brainDir: controller.brainDir,
    settings: () => controller.settings(),
    apiKey: () => keys.get(),
  });
  const participant = new GaiChatParticipant({
    getParts: () => controller.getParts(),
    chatRunning: () => controller.running,
    picturesDir: vscode.Uri.joinPath(context.globalStorageUri, 'chat-pictures'),
    iconPath: vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png'),
    logger,
  });
  context.subscriptions.push(
    channel,
    controller,
    chatView,
    setup,
    pictures,
    liveView,
    ...registerLiveViewCommands({ panel: liveView, logger, dropParts: (why) => controller.dropParts(why), notice: (text) => controller.chat.notice(text) }),
    statusBar,
    participant.register(),
    ...registerLmTools(lmTools),
    mcpDefinitions,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcpDefinitions),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chatView),
    ...registerRoutineCommands(controller),
    ...registerCommands(controller, keys, () => void vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`), context.extensionUri, history),
    // Each request's end saves the conversation.
    controller.onDidChangeRunning((running) => {
      if (!running) void history.save();
      // A request may have started GAI's own desktop: the header names its display.
      chatView.postDesktop();
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('gai.desktop')) chatView.postDesktop();
    }),
  );
  // Reopening VS Code shows the last conversation (read from disk after activation returns).
  void history.restoreLast().catch((error: unknown) => logger.warn(`conversation history: ${String(error)}`));
  try {
    controller.settings();
  } catch (error) {
    void vscode.window.showErrorMessage(`GAI: ${redactor.redactError(error)}`);
  }
  const activationMs = performance.now() - started;
  logger.info(`activated in ${activationMs.toFixed(1)} ms`);
  return {
    activationMs,
    hasApiKey: async () => (await keys.get()) !== undefined,
    checkSetup: () => checkSetup(),
    welcome: () => setup.welcome(),
    lastSetupCheck: () => setup.lastCheck,
    simulateWebviewMessage: (raw) => {
      const before = chatView.rejectedMessages;
      chatView.receive(raw);
      return chatView.rejectedMessages === before;
    },
    chatEntries: () => controller.chat.entries,
    isRunning: () => controller.running,
    webviewReadyCount: () => chatView.readyCount,
    statusText: () => statusBar.text,
    auditLines: () => controller.activity.audit.recent(),
    lastTimings: () => controller.lastTimings,
    brainDir: () => controller.brainDir,
    savedConversations: () => history.store.list(),
    currentConversationId: () => history.current,
    addScreen: (title, text, picture) => controller.chat.addScreen(title, text, picture),
    chatParticipant: participant,
    liveView: () => liveView.current,
    simulateLiveViewMessage: (raw) => liveView.receive(raw),
    liveViewSettled: () => liveView.settled(),
    picturePanel: () => {
      const panel = pictures.current;
      return panel ? { title: panel.title, readyCount: pictures.readyCount, ...(pictures.showing ? { showing: pictures.showing.title } : {}) } : undefined;
    },
    mcpServerDefinitions: () =>
      Promise.all(
        mcpDefinitions.provideMcpServerDefinitions().map(async (offered) => {
          const shown = { label: offered.label, command: offered.command, args: [...offered.args], env: { ...offered.env } };
          const resolved = await mcpDefinitions.resolveMcpServerDefinition(offered);
          return { ...shown, resolvedEnvNames: Object.keys(resolved.env) };
        }),
      ),
  };
}

export function deactivate(): void {}
