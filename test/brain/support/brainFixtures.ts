// Screens of a settings app and a files app as OCR reads them, and builders for nodes and
// paths, shared by the brain tests.
import { createPath } from '../../../src/navigation/store/brainRecords';
import { BRAIN_VERSION, type BrainDocument, type BrainNode, type BrainPath, type PathAction } from '../../../src/navigation/store/brainTypes';
import type { ScreenText } from '../../../src/navigation/recognition/fingerprint';
import { matchState } from '../../../src/navigation/recognition/stateIdentifier';

export const T0 = Date.parse('2025-03-01T10:00:00.000Z');
export const DAY = 24 * 60 * 60 * 1000;

const SIDEBAR = ['Settings', 'Search settings', 'General', 'Network', 'Display', 'Sound', 'Privacy', 'About'];

export function networkPage(clock = '12:34', extra: string[] = []): ScreenText {
  return {
    programName: 'gai-settings',
    windowTitle: 'Settings',
    lines: [
      ...SIDEBAR,
      'Network',
      'Wi-Fi',
      'Connected to HomeNet-5G',
      'Ethernet',
      'Cable unplugged',
      'Proxy',
      'Manual configuration',
      'VPN',
      'Add VPN connection',
      ...extra,
      'Apply',
      'Cancel',
      `Last synced ${clock}`,
      `Tue ${clock}`,
    ],
    headings: ['Network'],
  };
}

export function displayPage(clock = '12:34'): ScreenText {
  return {
    programName: 'gai-settings',
    windowTitle: 'Settings',
    lines: [
      ...SIDEBAR,
      'Display',
      'Resolution',
      '1920 x 1080 (16:9)',
      'Refresh rate',
      '60 Hz',
      'Scale',
      '100%',
      'Night light',
      'Off',
      'Orientation',
      'Landscape',
      'Apply',
      'Cancel',
      `Last synced ${clock}`,
      `Tue ${clock}`,
    ],
    headings: ['Display'],
  };
}

/** A page that shares almost everything with the network page: only heading and two lines differ. */
export function proxyPage(): ScreenText {
  const page = networkPage();
  return {
    ...page,
    lines: page.lines.map((l) => (l === 'Network' ? 'Proxy settings' : l === 'Wi-Fi' ? 'Proxy host' : l === 'Connected to HomeNet-5G' ? 'Proxy port' : l)),
    headings: ['Proxy settings'],
  };
}

export function homePage(): ScreenText {
  return { programName: 'gai-settings', windowTitle: 'Settings', lines: [...SIDEBAR, 'Welcome', 'Recently changed', 'Apply', 'Cancel'], headings: ['Welcome'] };
}

/** A files app folder listing; `files` rows each with a size and a time. */
export function folderPage(files: number, clock = '09:15'): ScreenText {
  const rows = Array.from({ length: files }, (_, i) => `report-${['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu'][i]}.pdf  ${(i + 1) * 12} KB  ${i + 1} hours ago`);
  return {
    programName: 'gai-files',
    windowTitle: 'Documents — Files',
    lines: ['File', 'Edit', 'View', 'Go', 'Help', 'Home', 'Desktop', 'Documents', 'Downloads', 'Name', 'Size', 'Modified', ...rows, `${files} items, 1.2 GB free`, clock],
    headings: [],
  };
}

/** A node for a screen, as identification would make it. */
export function nodeFor(reading: ScreenText, now = T0, label?: string): BrainNode {
  const node = matchState(reading, [], { now: () => now }).node;
  return label === undefined ? node : { ...node, label };
}

export function clickText(text: string): PathAction {
  return { tool: 'click', input: { text } };
}

export interface PathSpec {
  id: string;
  from: string;
  to: string;
  successes?: number;
  failures?: number;
  target?: string;
  actions?: PathAction[];
  lastUsed?: number;
}

/** A path with the given counts (all from writer "w"). */
export function pathFor(spec: PathSpec): BrainPath {
  const path = createPath(
    { id: spec.id, from: spec.from, to: spec.to, actions: spec.actions ?? [clickText(spec.to)], ...(spec.target ? { target: spec.target } : {}) },
    { now: spec.lastUsed ?? T0, writerId: 'w' },
  );
  const successes = spec.successes ?? 1;
  const failures = spec.failures ?? 0;
  path.metadata.tally = { w: { successes, failures, durationMs: successes * 500 } };
  path.metadata.successes = successes;
  path.metadata.failures = failures;
  path.metadata.usageCount = successes + failures;
  path.metadata.successRate = successes + failures === 0 ? 1 : successes / (successes + failures);
  path.metadata.avgDurationMs = successes ? 500 : 0;
  return path;
}

/** A document of copies of the nodes and paths (tests change documents in place). */
export function documentOf(nodes: BrainNode[], paths: BrainPath[] = [], now = T0): BrainDocument {
  return { version: BRAIN_VERSION, nodes: structuredClone(nodes), paths: structuredClone(paths), routines: [], forgotten: [], updatedAt: new Date(now).toISOString() };
}

/** The seed's JSON storage (version 0), with one action that has no current form. */
export const SEED_V0 = {
  nodes: [
    { programName: 'Finder', stateHash: 'a3b2c1d4e5f6', description: 'Finder home', ocrText: 'Favorites\nDesktop\nDocuments\n12:34', timestamp: T0 },
    { programName: 'Finder', stateHash: 'desktop-view', windowTitle: 'Desktop' },
  ],
  paths: [
    {
      id: 'path-1',
      fromNodeId: { programName: 'Finder', stateHash: 'a3b2c1d4e5f6' },
      toNodeId: { programName: 'Finder', stateHash: 'desktop-view' },
      description: 'Desktop folder in Finder',
      actions: [{ type: 'click', x: 40, y: 120, text: 'Desktop' }, { type: 'wait', duration: 500 }],
      metadata: { successRate: 0.8, usageCount: 5, createdAt: '2025-01-01T00:00:00.000Z', lastUsed: '2025-02-01T00:00:00.000Z' },
    },
    {
      id: 'path 2',
      fromNodeId: null,
      toNodeId: { programName: 'Terminal', stateHash: 'main' },
      actions: [{ type: 'spotlight', appName: 'Terminal' }, { type: 'key', key: 'n', modifiers: ['command'] }],
      metadata: { successRate: 1, usageCount: 2 },
    },
    { id: 'path-3', fromNodeId: null, toNodeId: { programName: 'Finder', stateHash: 'desktop-view' }, actions: [{ type: 'drag', from: 1 }], metadata: {} },
  ],
};
