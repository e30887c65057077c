// What the empty chat shows: the provider and model in use, where the key comes from, and three
// requests that work on this machine (from its installed applications). Pure but for reading
// the key and the desktop entries, so it is tested without VS Code.
import type { Provider } from '../../model/modelConfig';
import { applicationDirs, readDesktopEntries, type DesktopEntry } from '../../platform/linux/desktopEntries';
import { DEFAULT_MODELS } from '../../model/llmConfig';
import type { WelcomeView } from '../../shared/protocol';
import { apiKeyEnvVar } from './errorWording';

/** Always works: OCR and the accessibility tree need no application of their own. */
const READ_SCREEN = 'Read the screen and tell me which windows are open';

interface ExampleRule {
  /** Matched against an entry's name, generic name and keywords, whole words. */
  matches: RegExp;
  request: (name: string) => string;
}

const RULES: ExampleRule[] = [
  { matches: /\bcalculator\b/i, request: (name) => `Open ${name} and calculate 12 × 7` },
  { matches: /\b(text editor|notepad)\b/i, request: (name) => `Open ${name} and type "Hello from GAI"` },
  { matches: /\b(web browser|browser)\b/i, request: (name) => `Open ${name} and go to example.com` },
  { matches: /\b(terminal emulator|terminal)\b/i, request: (name) => `Open ${name} and run "date"` },
];

/** Up to three requests: the screen reading, then the first installed (windowed) application of each kind. */
export function exampleRequests(entries: readonly DesktopEntry[]): string[] {
  const examples = [READ_SCREEN];
  for (const rule of RULES) {
    if (examples.length >= 3) break;
    const entry = entries.find((candidate) => !candidate.terminal && [candidate.name, candidate.genericName ?? '', ...candidate.keywords].some((text) => rule.matches.test(text)));
    if (entry) examples.push(rule.request(entry.name));
  }
  if (examples.length < 3) examples.push('What is in the active window?');
  if (examples.length < 3) examples.push('Where is the mouse pointer, and what is under it?');
  return examples;
}

export interface KeyState {
  source?: WelcomeView['keySource'];
  note?: string;
}

/** Where the key comes from: the stored one first, then the provider's environment variable. */
export function keyState(provider: Provider, stored: boolean, env: Record<string, string | undefined>, storageNote?: string): KeyState {
  if (provider === 'vscode-lm') return { note: 'VS Code\'s chat models (GitHub Copilot Chat) need no key.' };
  const variable = apiKeyEnvVar(provider);
  if (stored) return storageNote ? { source: 'secretStorage', note: storageNote } : { source: 'secretStorage' };
  if (env[variable]) return { source: 'environment', note: `From ${variable} in the environment VS Code was started from.${storageNote ? ` ${storageNote}` : ''}` };
  // A local server (ollama) needs no key.
  if (provider === 'ollama') return { note: 'Ollama runs locally and needs no key.' };
  return {};
}

export function welcomeView(options: { provider: Provider; model?: string; key: KeyState; examples: string[] }): WelcomeView {
  const firstModel = options.provider === 'vscode-lm' ? 'the first chat model VS Code offers' : '(none: choose a model)';
  const model = options.model ?? DEFAULT_MODELS[options.provider].default ?? firstModel;
  return {
    provider: options.provider,
    model,
    ...(options.key.source ? { keySource: options.key.source } : {}),
    ...(options.key.note ? { keyNote: options.key.note } : {}),
    examples: options.examples,
  };
}

/** The examples for this machine, read once (the installed applications rarely change within a session). */
export class MachineExamples {
  private examples?: Promise<string[]>;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  get(): Promise<string[]> {
    this.examples ??= readDesktopEntries(applicationDirs(this.env)).then(exampleRequests, () => exampleRequests([]));
    return this.examples;
  }
}
