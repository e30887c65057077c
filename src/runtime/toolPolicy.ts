import type { RiskLevel } from '../tools/toolTypes';

export const TOOL_PROFILES = ['read-only', 'standard', 'full'] as const;
export type ToolProfile = (typeof TOOL_PROFILES)[number];
/**
 * What the CLI and the extension use unless told otherwise: reading and acting in windows, but
 * starting programs (`system` tools) needs `full` or an allow entry.
 */
export const DEFAULT_TOOL_PROFILE: ToolProfile = 'standard';

/** Which risk levels each profile shows the model. */
const PROFILE_RISKS: Record<ToolProfile, ReadonlySet<RiskLevel>> = {
  'read-only': new Set(['read']),
  standard: new Set(['read', 'action']),
  full: new Set(['read', 'action', 'system']),
};

export interface ToolPolicyConfig {
  profile: ToolProfile;
  /** Tool names (with `*` wildcards) shown in addition to the profile's. */
  allow?: string[];
  /** Tool names (with `*` wildcards) never shown; wins over profile and allow. */
  deny?: string[];
}

/** Filters tools before the model sees them, so a hidden tool can never be called. */
export class ToolPolicy {
  private readonly allow: RegExp[];
  private readonly deny: RegExp[];

  constructor(readonly config: ToolPolicyConfig = { profile: 'full' }) {
    this.allow = (config.allow ?? []).map(globToRegExp);
    this.deny = (config.deny ?? []).map(globToRegExp);
  }

  permits(tool: { name: string; risk: RiskLevel }): boolean {
    if (this.deny.some((re) => re.test(tool.name))) return false;
    return PROFILE_RISKS[this.config.profile].has(tool.risk) || this.allow.some((re) => re.test(tool.name));
  }

  /** Why a tool is hidden, for the error a call to it gets. */
  refusal(tool: { name: string; risk: RiskLevel }): string {
    if (this.deny.some((re) => re.test(tool.name))) return `${tool.name} is on the deny list`;
    return `${tool.name} (risk "${tool.risk}") is not allowed by the "${this.config.profile}" tool profile`;
  }
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*');
  return new RegExp(`^${escaped}$`);
}

export function isToolProfile(value: string): value is ToolProfile {
  return (TOOL_PROFILES as readonly string[]).includes(value);
}
