// The extension's settings (`gai.*`), read through an accessor so the parsing runs without
// VS Code (unit tests). Every error names the setting and says what was expected.
import { safetySettingsFrom, type SafetySettings } from '../safety/safetySettings';
import { GaiError } from '../common/errors';
import { compileRedactPatterns, type RedactSettings } from '../common/redact';
import { compileWindowTitles } from '../desktop/reading/privateWindows';
import { COMPUTER_USE_MODES, type ComputerUseMode, type Provider } from '../model/modelConfig';
import type { RiskLevel } from '../tools/toolTypes';
import { PROVIDERS } from '../model/llmConfig';
import { TOOL_PROFILES, type ToolProfile } from '../runtime/toolPolicy';
import { parseMcpServers, type McpServerEntry } from '../mcp/client/clientConfig';
import { DEFAULT_INPUT, INPUT_CHOICES, type InputChoice } from '../tools/inputChoice';

export interface GaiSettings {
  provider: Provider;
  baseUrl?: string;
  model: { default?: string; fast?: string; vision?: string };
  /** `gai.computerUse`: the model's own computer tool (`native`), GAI's tools, or by model (`auto`). */
  computerUse: ComputerUseMode;
  /** `gai.input`: a plain click by text with the pointer, or through the control's accessibility action first (the pointer stays). */
  input: InputChoice;
  maxIterations: number;
  toolProfile: ToolProfile;
  autoApprove: RiskLevel[];
  /** `gai.approvals.alwaysAllow`: tools the agent runs without asking, in every conversation. */
  alwaysAllowTools: string[];
  ocrLanguage: string;
  screenshotMaxWidth: number;
  statusBarRefreshSeconds: number;
  /** `gai.statusBar.summary`: what the interval refresh shows; `model` spends tokens on every refresh. */
  statusBarSummary: StatusBarSummary;
  keepScreenshots: number;
  brainThumbnails: boolean;
  /** `gai.safety.*`: the global stop hotkey, the fail-safe corner and the takeover pause. */
  safety: SafetySettings;
  /** `gai.redact`: text patterns redacted everywhere, and windows whose screenshots never go to a model. */
  redact: RedactSettings;
  /** `gai.apps.allow` / `gai.apps.deny`: applications GAI may always / never act in. */
  apps: { allow: string[]; deny: string[] };
  /** `gai.launch.allow`: programs launch_app may start without a desktop / Start menu entry. */
  launchAllow: string[];
  /** `gai.mcpServers`: MCP servers whose tools the agent may use (started with the first request). */
  mcpServers: McpServerEntry[];
  /** `gai.desktop`: the person's screen, GAI's own private desktop (watched in the live view), or `auto`: own where there is no screen. */
  desktop: DesktopChoice;
}

export const DESKTOP_CHOICES = ['auto', 'screen', 'own'] as const;
export type DesktopChoice = (typeof DESKTOP_CHOICES)[number];


/** `get('maxIterations')` returns the value of `gai.maxIterations` (undefined when unset). */
export type SettingsAccessor = (key: string) => unknown;

const RISK_LEVELS: readonly RiskLevel[] = ['read', 'action', 'system'];
export const STATUS_BAR_SUMMARIES = ['window', 'model'] as const;
export type StatusBarSummary = (typeof STATUS_BAR_SUMMARIES)[number];

/** Parses every `gai.*` setting; throws a CONFIG GaiError naming the first bad one. */
export function parseSettings(get: SettingsAccessor): GaiSettings {
  return {
    provider: oneOf(get, 'provider', PROVIDERS, 'anthropic'),
    baseUrl: optionalUrl(get, 'baseUrl'),
    model: {
      default: optionalString(get, 'model.default'),
      fast: optionalString(get, 'model.fast'),
      vision: optionalString(get, 'model.vision'),
    },
    computerUse: oneOf(get, 'computerUse', COMPUTER_USE_MODES, 'auto'),
    input: oneOf(get, 'input', INPUT_CHOICES, DEFAULT_INPUT),
    maxIterations: integer(get, 'maxIterations', 10, 1, 1000),
    toolProfile: oneOf(get, 'toolProfile', TOOL_PROFILES, 'standard'),
    autoApprove: riskLevels(get, 'autoApprove'),
    alwaysAllowTools: nameList(get, 'approvals.alwaysAllow', 100),
    ocrLanguage: ocrLanguage(get, 'ocrLanguage'),
    screenshotMaxWidth: integer(get, 'screenshotMaxWidth', 1280, 200, 8192),
    statusBarRefreshSeconds: integer(get, 'statusBar.refreshSeconds', 0, 0, 3600),
    statusBarSummary: oneOf(get, 'statusBar.summary', STATUS_BAR_SUMMARIES, 'window'),
    keepScreenshots: integer(get, 'keepScreenshots', 3, 0, 50),
    desktop: oneOf(get, 'desktop', DESKTOP_CHOICES, 'auto'),
    brainThumbnails: boolean(get, 'brain.thumbnails', true),
    safety: safety(get),
    redact: redactSettings(get, 'redact'),
    apps: { allow: nameList(get, 'apps.allow', 200), deny: nameList(get, 'apps.deny', 200) },
    launchAllow: nameList(get, 'launch.allow', 100),
    mcpServers: mcpServers(get),
  };
}

function fail(key: string, expected: string, value: unknown): never {
  throw new GaiError('CONFIG', `Setting gai.${key}: expected ${expected}, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (Array.isArray(value)) return `[${value.map(describe).join(', ')}]`;
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value);
}

function redactSettings(get: SettingsAccessor, key: string): RedactSettings {
  const value = get(key);
  if (value === undefined || value === null) return { patterns: [], windowTitles: [] };
  if (typeof value !== 'object' || Array.isArray(value)) fail(key, 'an object with "patterns" and "windowTitles" lists', value);
  const fields = value as Record<string, unknown>;
  for (const field of Object.keys(fields)) {
    if (field !== 'patterns' && field !== 'windowTitles') throw new GaiError('CONFIG', `Setting gai.${key}.${field}: unknown field (known: patterns, windowTitles)`);
  }
  const list = (field: 'patterns' | 'windowTitles'): string[] => {
    const items = fields[field];
    if (items === undefined || items === null) return [];
    if (!Array.isArray(items) || !items.every((item) => typeof item === 'string' && item.trim() !== '')) {
      fail(`${key}.${field}`, 'a list of non-empty strings', items);
    }
    return [...(items as string[])];
  };
  const patterns = list('patterns');
  const windowTitles = list('windowTitles');
  try {
    compileRedactPatterns(patterns, `gai.${key}.patterns`);
    compileWindowTitles(windowTitles, `gai.${key}.windowTitles`);
  } catch (error) {
    throw new GaiError('CONFIG', `Setting ${error instanceof Error ? error.message : String(error)}`);
  }
  return { patterns, windowTitles };
}

/** A list of application or program names (at most 500, each non-empty and at most `maxLength` long). */
function nameList(get: SettingsAccessor, key: string, maxLength: number): string[] {
  const value = get(key);
  if (value === undefined || value === null) return [];
  const expected = `a list of names (at most 500, each 1 to ${maxLength} characters)`;
  if (!Array.isArray(value) || value.length > 500) fail(key, expected, value);
  for (const item of value) {
    if (typeof item !== 'string' || item.trim() === '' || item.length > maxLength) fail(key, expected, value);
  }
  return (value as string[]).map((item) => item.trim());
}

/** The message names the setting first (its link opens gai.mcpServers), then the server and the field. */
function mcpServers(get: SettingsAccessor): McpServerEntry[] {
  try {
    return parseMcpServers(get('mcpServers'), 'gai.mcpServers');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const where = message.startsWith('gai.mcpServers.') ? message.slice('gai.mcpServers.'.length) : message.replace(/^gai\.mcpServers: /, '');
    throw new GaiError('CONFIG', `Setting gai.mcpServers: ${where}`, { cause: error });
  }
}

function safety(get: SettingsAccessor): SafetySettings {
  const hotkey = get('safety.stopHotkey');
  if (hotkey !== undefined && hotkey !== null && typeof hotkey !== 'string') fail('safety.stopHotkey', 'a key combination such as "ctrl+alt+escape", or "off"', hotkey);
  const failSafeCorner = boolean(get, 'safety.failSafeCorner', true);
  const pauseOnTakeover = boolean(get, 'safety.pauseOnTakeover', true);
  try {
    return safetySettingsFrom({ ...(typeof hotkey === 'string' ? { stopHotkey: hotkey } : {}), failSafeCorner, pauseOnTakeover }, 'gai.safety.');
  } catch (error) {
    throw new GaiError('CONFIG', `Setting ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function boolean(get: SettingsAccessor, key: string, fallback: boolean): boolean {
  const value = get(key);
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') fail(key, 'true or false', value);
  return value;
}

function optionalString(get: SettingsAccessor, key: string): string | undefined {
  const value = get(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') fail(key, 'a string', value);
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function optionalUrl(get: SettingsAccessor, key: string): string | undefined {
  const value = optionalString(get, key);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(key, 'an http(s) URL or an empty string', value);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(key, 'an http(s) URL or an empty string', value);
  return value;
}

function oneOf<T extends string>(get: SettingsAccessor, key: string, values: readonly T[], fallback: T): T {
  const value = get(key);
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) fail(key, `one of ${values.join(', ')}`, value);
  return value as T;
}

function integer(get: SettingsAccessor, key: string, fallback: number, min: number, max: number): number {
  const value = get(key);
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(key, `a whole number from ${min} to ${max}`, value);
  }
  return value;
}

function riskLevels(get: SettingsAccessor, key: string): RiskLevel[] {
  const value = get(key);
  if (value === undefined || value === null) return ['read'];
  const expected = `a list of risk levels (${RISK_LEVELS.join(', ')})`;
  if (!Array.isArray(value)) fail(key, expected, value);
  for (const item of value) if (!(RISK_LEVELS as readonly unknown[]).includes(item)) fail(key, expected, value);
  return [...new Set(value as RiskLevel[])];
}

function ocrLanguage(get: SettingsAccessor, key: string): string {
  const value = optionalString(get, key) ?? 'eng';
  if (!/^[a-z_]{3,}(\+[a-z_]{3,})*$/i.test(value)) fail(key, 'tesseract language codes joined by +, e.g. "eng" or "eng+deu"', value);
  return value;
}

/** Where GAI works for `gai.desktop`: `auto` is GAI's own desktop on a Linux host with no display (a remote, a container). */
export function desktopIn(choice: DesktopChoice, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): 'screen' | 'own' {
  if (choice !== 'auto') return choice;
  return platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY ? 'own' : 'screen';
}
