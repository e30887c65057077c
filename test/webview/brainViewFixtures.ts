// Small brain documents for the Show Brain tests, built by hand so the tests say exactly what
// the picture gets.
import { BRAIN_VERSION, LAUNCHER_KEY, type BrainDocument, type BrainNode, type BrainPath, type PathAction } from '../../src/navigation/store/brainTypes';

export const T0 = '2025-03-01T10:00:00.000Z';

export function node(key: string, label: string, visits = 1, extra: Partial<BrainNode> = {}): BrainNode {
  const [programName = 'app', stateHash = 'h'] = key.split('::');
  return {
    key,
    programName,
    stateHash,
    label,
    windowTitle: `${label} window`,
    fingerprint: { title: label.toLowerCase(), lines: [], headings: [] },
    firstSeen: T0,
    lastSeen: T0,
    visits,
    updatedAt: T0,
    ...extra,
  };
}

export interface PathSpec {
  successes?: number;
  failures?: number;
  actions?: PathAction[];
  targets?: string[];
}

export function path(id: string, from: string, to: string, spec: PathSpec = {}): BrainPath {
  const successes = spec.successes ?? 1;
  const failures = spec.failures ?? 0;
  const runs = successes + failures;
  return {
    id,
    from,
    to,
    targets: spec.targets ?? [to.split('::')[1] ?? to],
    actions: spec.actions ?? [from === LAUNCHER_KEY ? { tool: 'launch_app', input: { appName: to.split('::')[0] ?? 'app' } } : { tool: 'click', input: { text: 'Next' } }],
    metadata: {
      successRate: runs === 0 ? 1 : successes / runs,
      usageCount: runs,
      successes,
      failures,
      avgDurationMs: successes === 0 ? 0 : 1200,
      createdAt: T0,
      lastUsedAt: T0,
      ...(failures > 0 ? { lastFailure: { at: T0, step: 1, reason: '"Network" not found' } } : {}),
      tally: { w: { successes, failures, durationMs: successes * 1200 } },
    },
    revision: 1,
    updatedAt: T0,
  };
}

export function documentOf(nodes: BrainNode[], paths: BrainPath[]): BrainDocument {
  return { version: BRAIN_VERSION, nodes, paths, routines: [], forgotten: [], updatedAt: T0 };
}

/**
 * The settings app: the launcher opens Home; Home → Network (twice, two paths), Network →
 * Wi-Fi, Wi-Fi back to Home, and a refresh loop on Home. Files is a screen without paths.
 */
export function settingsBrain(): BrainDocument {
  return documentOf(
    [
      node('settings::home', 'Settings home', 9),
      node('settings::network', 'Network', 5),
      node('settings::wifi', 'Wi-Fi', 2),
      node('files::root', 'Files', 1),
    ],
    [
      path('p-launch', LAUNCHER_KEY, 'settings::home', { successes: 4 }),
      path('p-net', 'settings::home', 'settings::network', { successes: 2, failures: 1 }),
      path('p-net2', 'settings::home', 'settings::network', { successes: 1, failures: 3 }),
      path('p-wifi', 'settings::network', 'settings::wifi', { successes: 0, failures: 0 }),
      path('p-back', 'settings::wifi', 'settings::home', { successes: 5 }),
      path('p-loop', 'settings::home', 'settings::home', { successes: 1 }),
    ],
  );
}
