// GAI: Choose Model — a QuickPick of the provider, then one per mode (main, fast, vision): the
// provider's default, the model set now, or a name typed in. Written to the gai.* user settings,
// which rebuilds the agent and re-sends the welcome (their change listeners).
import * as vscode from 'vscode';
import type { Provider } from '../../model/modelConfig';
import { DEFAULT_MODELS, PROVIDERS } from '../../model/llmConfig';
import { apiKeyEnvVar, providerName } from './errorWording';
import type { OutputChannelLogger } from '../outputLogger';

const MODES = [
  { key: 'model.default', title: 'main model (works the desktop)', fallback: 'default' },
  { key: 'model.fast', title: 'fast model (quick screen summaries)', fallback: 'fast' },
  { key: 'model.vision', title: 'vision model (detailed screen reading)', fallback: 'vision' },
] as const;

type ModelPick = vscode.QuickPickItem & { value: string | undefined };

/** Returns true when the choice was written, false when the person cancelled. */
export async function chooseModel(logger: OutputChannelLogger): Promise<boolean> {
  const config = vscode.workspace.getConfiguration('gai');
  const current = config.get<string>('provider');
  const provider = await vscode.window.showQuickPick(
    PROVIDERS.map((id) => ({ label: providerName(id), description: id === current ? 'current' : id === 'ollama' ? 'local, no key' : id === 'vscode-lm' ? 'GitHub Copilot Chat\'s models, no key' : `key: ${apiKeyEnvVar(id)}`, id })),
    { title: 'GAI: Choose Model (1/4): provider', ignoreFocusOut: true },
  );
  if (!provider) return false;
  const chosen: Array<[string, string | undefined]> = [];
  for (const [step, mode] of MODES.entries()) {
    const value = await pickModel(provider.id, mode, step + 2, provider.id === current ? config.get<string>(mode.key) : undefined);
    if (value === null) return false;
    chosen.push([mode.key, value]);
  }
  await config.update('provider', provider.id, vscode.ConfigurationTarget.Global);
  for (const [key, value] of chosen) await config.update(key, value ?? '', vscode.ConfigurationTarget.Global);
  logger.info(`model chosen: ${provider.id}, ${chosen.map(([key, value]) => `${key}=${value ?? '(default)'}`).join(', ')}`);
  return true;
}

/** The model's name, undefined for the provider's default, null when cancelled. */
async function pickModel(provider: Provider, mode: (typeof MODES)[number], step: number, setNow: string | undefined): Promise<string | undefined | null> {
  const fallback = DEFAULT_MODELS[provider][mode.fallback];
  const items: ModelPick[] = [
    { label: fallback ? `Default: ${fallback}` : 'Default', description: mode.key === 'model.vision' ? 'the main model' : provider === 'ollama' ? 'name one below' : undefined, value: undefined },
    ...(setNow ? [{ label: setNow, description: 'set now', value: setNow }] : []),
    { label: 'Other…', description: 'type a model name', value: '' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: `GAI: Choose Model (${step}/4): ${mode.title}`, ignoreFocusOut: true });
  if (!picked) return null;
  if (picked.value !== '') return picked.value;
  const typed = await vscode.window.showInputBox({
    title: `GAI: ${mode.title} for ${providerName(provider)}`,
    prompt: 'The model name as the provider spells it',
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim() === '' ? 'A model name is needed (or go back and pick Default).' : /\s/.test(text.trim()) ? 'A model name has no spaces.' : undefined),
  });
  return typed === undefined ? null : typed.trim();
}
