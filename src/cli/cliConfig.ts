import { readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { safetySettingsFrom } from '../safety/safetySettings';
import { GaiError, errorMessage } from '../common/errors';
import { compileRedactPatterns } from '../common/redact';
import { COMPUTER_USE_MODES, OPENAI_APIS } from '../model/modelConfig';
import { compileWindowTitles } from '../desktop/reading/privateWindows';
import { parseMcpServers } from '../mcp/client/clientConfig';
import { compileValidator, StringEnum } from '../common/schema';
import { TOOL_PROFILES } from '../runtime/toolPolicy';
import { INPUT_CHOICES } from '../tools/inputChoice';

// The optional config file of the CLI (`--config FILE`, else $XDG_CONFIG_HOME/gai/config.json).
// Declared once: the schema is both the documentation and the validator.

const RISKS = ['read', 'action', 'system'] as const;

const ConfigFileSchema = Type.Object(
  {
    llm: Type.Optional(
      Type.Object(
        {
          provider: Type.Optional(StringEnum(['anthropic', 'openai', 'ollama', 'google'] as const)),
          baseUrl: Type.Optional(Type.String({ minLength: 1 })),
          apiKey: Type.Optional(Type.String({ minLength: 1 })),
          model: Type.Optional(Type.String({ minLength: 1 })),
          fastModel: Type.Optional(Type.String({ minLength: 1 })),
          visionModel: Type.Optional(Type.String({ minLength: 1 })),
          maxTokens: Type.Optional(Type.Integer({ minimum: 1 })),
          timeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
          maxRetries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
          computerUse: Type.Optional(
            StringEnum(COMPUTER_USE_MODES, { description: "the model's own computer tool (native), GAI's tools (gai-tools), or by model (auto, the default)" }),
          ),
          api: Type.Optional(StringEnum(OPENAI_APIS, { description: 'provider openai: chat-completions (any compatible server) or responses (OpenAI\'s Responses API)' })),
        },
        { additionalProperties: false },
      ),
    ),
    agent: Type.Optional(
      Type.Object(
        {
          maxIterations: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
          keepScreenshots: Type.Optional(Type.Integer({ minimum: 0, maximum: 50 })),
        },
        { additionalProperties: false },
      ),
    ),
    desktop: Type.Optional(
      Type.Object(
        {
          ocrLanguage: Type.Optional(Type.String({ pattern: '^[a-z_]+(\\+[a-z_]+)*$' })),
          screenshotMaxWidth: Type.Optional(Type.Integer({ minimum: 64, maximum: 7_680 })),
          input: Type.Optional(
            StringEnum(INPUT_CHOICES, { description: 'pointer (default): clicks move the pointer; accessibility: a plain click by text presses the control through its accessibility action first, the pointer staying (--input-mode wins)' }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    tools: Type.Optional(
      Type.Object(
        {
          profile: Type.Optional(StringEnum(TOOL_PROFILES)),
          allow: Type.Optional(Type.Array(Type.String())),
          deny: Type.Optional(Type.Array(Type.String())),
          autoApprove: Type.Optional(Type.Array(StringEnum(RISKS))),
          defaultTimeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
          timeouts: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 1 }))),
        },
        { additionalProperties: false },
      ),
    ),
    safety: Type.Optional(
      Type.Object(
        {
          stopHotkey: Type.Optional(Type.String({ description: 'global stop hotkey while the agent runs, e.g. "ctrl+alt+escape" (default), or "off"' })),
          failSafeCorner: Type.Optional(Type.Boolean({ description: 'stop when the pointer is pushed into a screen corner (default true)' })),
          pauseOnTakeover: Type.Optional(Type.Boolean({ description: 'pause and ask when the person moves the mouse or types while the agent works (default true)' })),
        },
        { additionalProperties: false },
      ),
    ),
    apps: Type.Optional(
      Type.Object(
        {
          /** Apps GAI may act in without asking; terminals and password managers only when named here exactly. */
          allow: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500 })),
          /** Apps GAI may never act in (wins over allow and over earlier answers). */
          deny: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500 })),
        },
        { additionalProperties: false },
      ),
    ),
    launch: Type.Optional(
      Type.Object(
        {
          /** Programs launch_app may start although no desktop entry (app bundle, Start menu entry) names them. */
          allow: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 500 })),
        },
        { additionalProperties: false },
      ),
    ),
    brain: Type.Optional(
      Type.Object(
        {
          /** Where the CLI keeps the navigation brain; --brain-dir and $GAI_BRAIN_DIR take precedence. */
          dir: Type.Optional(Type.String({ minLength: 1, description: 'absolute, or relative to the current directory' })),
          /** false: keep no screen pictures in the brain. */
          thumbnails: Type.Optional(Type.Boolean({ description: 'keep a small picture of each learned screen (default true)' })),
        },
        { additionalProperties: false },
      ),
    ),
    /** MCP servers whose tools `gai ask` offers the model: name → {command, args?, env?, cwd?} or {url, headers?} (checked by parseMcpServers). */
    mcpServers: Type.Optional(Type.Unknown({ description: 'the same shape as Claude Desktop and Cursor use; timeoutSeconds per server (60 by default)' })),
    /** Secrets kept out of everything GAI prints, logs or sends (the same shape as VS Code's gai.redact). */
    redact: Type.Optional(
      Type.Object(
        {
          patterns: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'regular expressions redacted from every printed text' })),
          windowTitles: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'windows whose screenshots never go to a model' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type ConfigFile = Static<typeof ConfigFileSchema>;

const validator = compileValidator(ConfigFileSchema);

/** Reads and validates a config file; a missing default file is an empty config. */
export function loadConfigFile(path: string, required: boolean): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new GaiError('CONFIG', `config file ${path}: cannot read it (${errorMessage(error)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new GaiError('CONFIG', `config file ${path}: not valid JSON (${errorMessage(error)})`);
  }
  const result = validator.validate(parsed);
  if (!result.ok) throw new GaiError('CONFIG', `config file ${path}: ${result.errors.join('; ')}`);
  try {
    compileRedactPatterns(result.value.redact?.patterns ?? [], 'redact.patterns');
    compileWindowTitles(result.value.redact?.windowTitles ?? [], 'redact.windowTitles');
  } catch (error) {
    throw new GaiError('CONFIG', `config file ${path}: ${errorMessage(error)}`);
  }
  try {
    parseMcpServers(result.value.mcpServers, 'mcpServers');
  } catch (error) {
    throw new GaiError('CONFIG', `config file ${path}: ${errorMessage(error)}`, { cause: error });
  }
  try {
    safetySettingsFrom(result.value.safety ?? {}, 'safety.');
  } catch (error) {
    throw new GaiError('CONFIG', `config file ${path}: ${errorMessage(error)}`, { cause: error });
  }
  return result.value;
}
