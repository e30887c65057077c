// The protocol between the "GAI Brain" webview panel and the extension host. Like protocol.ts:
// messages from the view are TypeBox schemas (the host validates every one), messages to the
// view are plain types. The view imports this file with `import type` only, so no TypeBox code
// lands in its bundle.
import { Type, type Static, type TObject } from '@sinclair/typebox';

/** Longest node label a rename may set (stored labels may be longer; the brain allows 200). */
export const MAX_NODE_LABEL = 120;

const NodeKey = Type.String({ minLength: 1, maxLength: 300 });
// As BrainPathSchema.id: anything else cannot name a stored path.
const PathId = Type.String({ minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9_.:-]+$' });

/** View → host, by `type`. */
export const BRAIN_VIEW_MESSAGE_SCHEMAS = {
  /** The view has rendered and listens: the host answers with the graph. */
  ready: Type.Object({ type: Type.Literal('ready') }, { additionalProperties: false }),
  refresh: Type.Object({ type: Type.Literal('refresh') }, { additionalProperties: false }),
  /** The host asks for confirmation first. */
  forgetNode: Type.Object({ type: Type.Literal('forgetNode'), key: NodeKey }, { additionalProperties: false }),
  forgetPath: Type.Object({ type: Type.Literal('forgetPath'), id: PathId }, { additionalProperties: false }),
  /** With `label`: set it as is. Without: the host asks for the new label (input box). */
  renameNode: Type.Object(
    {
      type: Type.Literal('renameNode'),
      key: NodeKey,
      label: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_NODE_LABEL, pattern: '\\S' })),
    },
    { additionalProperties: false },
  ),
  /** The picture of a screen (the graph leaves them out to stay small); answered by `thumbnail`. */
  thumbnail: Type.Object({ type: Type.Literal('thumbnail'), key: NodeKey }, { additionalProperties: false }),
} satisfies Record<string, TObject>;

export type BrainViewMessageType = keyof typeof BRAIN_VIEW_MESSAGE_SCHEMAS;
export type BrainViewMessage = { [K in BrainViewMessageType]: Static<(typeof BRAIN_VIEW_MESSAGE_SCHEMAS)[K]> }[BrainViewMessageType];

/** A screen state as drawn: its data and its box in graph coordinates (pixels). */
export interface BrainNodeView {
  key: string;
  /** The full label (may be empty in the brain; then the program name stands in). */
  label: string;
  /** What fits in the box. */
  shortLabel: string;
  programName: string;
  windowTitle: string;
  visits: number;
  /** ISO time; empty for the launcher. */
  lastSeen: string;
  /** The pseudo-node every screen reaches (paths that start by launching an app). */
  isLauncher: boolean;
  /** The screen GAI last identified as the current one. */
  isCurrent?: boolean;
  /** Learned paths that start or end here (drawn or not). */
  pathCount: number;
  /** The brain holds a picture of this screen (the view asks for it with `thumbnail`). */
  hasThumbnail?: boolean;
  /** Steps from the layout's root (the launcher, else the current or most visited screen). */
  depth: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export type EdgeQuality = 'good' | 'fair' | 'poor' | 'untried';

/** A learned path as drawn. */
export interface BrainEdgeView {
  id: string;
  from: string;
  to: string;
  successRate: number;
  usageCount: number;
  successes: number;
  failures: number;
  avgDurationMs: number;
  lastUsedAt: string;
  /** `step 2: "Network" not found (2025-03-01T10:00:00.000Z)` */
  lastFailure?: string;
  /** One line per action (pathActions.describeAction), bounded. */
  actions: string[];
  /** Target descriptions the path has served. */
  targets: string[];
  /** The colour: good ≥ 80 %, fair ≥ 50 %, poor below; untried when never run. */
  quality: EdgeQuality;
  /** `usage ×3, 67%` */
  label: string;
  /** SVG path data of the curve, in graph coordinates; it ends at the target's border. */
  d: string;
  labelX: number;
  labelY: number;
}

export interface BrainStatsView {
  totalNodes: number;
  totalPaths: number;
  totalRuns: number;
  /** Of the paths that ran at least once; 0..1. */
  averageSuccessRate: number;
  /** Screens and paths left out of the picture (it is bounded). */
  hiddenNodes: number;
  hiddenPaths: number;
}

export interface BrainGraphView {
  nodes: BrainNodeView[];
  edges: BrainEdgeView[];
  stats: BrainStatsView;
  /** The drawing's size; every node box and curve lies within it. */
  width: number;
  height: number;
}

/** Host → view. */
export type BrainHostMessage =
  | { type: 'graph'; graph: BrainGraphView }
  | { type: 'error'; text: string }
  /** `src` is a `data:image/…;base64,` URL, or null when the screen has no picture. */
  | { type: 'thumbnail'; key: string; src: string | null };
