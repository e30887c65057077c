// The protocol between the "GAI Brain" webview panel and the extension host. Like protocol.ts:
// messages from the view are TypeBox schemas (the host validates every one), messages to the
// view are plain types. The view imports this file with `import type` only, so no TypeBox code
// lands in its bundle.
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';

/** Longest node label a rename may set (stored labels may be longer; the brain allows 200). */
export const MAX_NODE_LABEL = 120;

const NodeKey = Type.String({ minLength: 1, maxLength: 300 });
// As BrainPathSchema.id: anything else cannot name a stored path.
const PathId = Type.String({ minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9_.:-]+$' });
// As RoutineSchema.id and a step's id (routineTypes.ts): anything else names no routine or step.
const RoutineId = Type.String({ minLength: 1, maxLength: 63, pattern: '^[a-z0-9][a-z0-9-]*$' });
const StepId = Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$' });
/** A crop picture's token (RoutineStepView.crop): 16 hex digits. */
const CropToken = Type.String({ pattern: '^[0-9a-f]{16}$' });
// Loose on purpose: a bad name reaches the routine records, whose error says what a name may hold.
const ParameterName = Type.String({ minLength: 1, maxLength: 100 });
const RoutineName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const routineMessage = <T extends string, P extends TProperties>(type: T, properties: P) =>
  Type.Object({ type: Type.Literal(type), id: RoutineId, ...properties }, { additionalProperties: false });

/** The routine messages of the view (routineActions.ts handles them); `id` is the routine's. */
export const ROUTINE_VIEW_MESSAGE_SCHEMAS = {
  /** Runs it as Run Routine... does (GAI asks for its parameters). */
  runRoutine: routineMessage('runRoutine', {}),
  /** With `name`: set it as is. Without: the host asks for it. */
  renameRoutine: routineMessage('renameRoutine', { name: Type.Optional(RoutineName) }),
  /** The host asks where to save the readable file. */
  exportRoutine: routineMessage('exportRoutine', {}),
  /** The host asks for confirmation first (also for deleteStep and removeParameter). */
  forgetRoutine: routineMessage('forgetRoutine', {}),
  /** Trusts an imported routine: its steps no longer ask one by one. */
  confirmRoutine: routineMessage('confirmRoutine', {}),
  stepOptional: routineMessage('stepOptional', { step: StepId, optional: Type.Boolean() }),
  /** `to` is the 1-based place the step moves to (the records reject one out of range). */
  moveStep: routineMessage('moveStep', { step: StepId, to: Type.Integer({ minimum: 1, maximum: 1000 }) }),
  deleteStep: routineMessage('deleteStep', { step: StepId }),
  /** A text the step types becomes `{name}`; the host asks for what is missing (text, name). */
  makeParameter: routineMessage('makeParameter', { step: StepId, value: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000 })), name: Type.Optional(ParameterName) }),
  /** Without any of rename/description/default the host asks for all three (prefilled). */
  editParameter: routineMessage('editParameter', {
    name: ParameterName,
    rename: Type.Optional(ParameterName),
    description: Type.Optional(Type.String({ maxLength: 300 })),
    default: Type.Optional(Type.String({ maxLength: 10_000 })),
  }),
  removeParameter: routineMessage('removeParameter', { name: ParameterName }),
  /** The change a replay proposed for the step: accepted it replaces the step, rejected it is dropped. */
  acceptProposal: routineMessage('acceptProposal', { step: StepId }),
  rejectProposal: routineMessage('rejectProposal', { step: StepId }),
} satisfies Record<string, TObject>;

export type RoutineViewMessageType = keyof typeof ROUTINE_VIEW_MESSAGE_SCHEMAS;
export type RoutineViewMessage = { [K in RoutineViewMessageType]: Static<(typeof ROUTINE_VIEW_MESSAGE_SCHEMAS)[K]> }[RoutineViewMessageType];

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
  /** The crop pictures of routine steps, by token (the routines leave them out); answered by `routineCrops`. */
  routineCrops: Type.Object({ type: Type.Literal('routineCrops'), crops: Type.Array(CropToken, { minItems: 1, maxItems: 50 }) }, { additionalProperties: false }),
  ...ROUTINE_VIEW_MESSAGE_SCHEMAS,
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

/** A replay's proposed change to a step, shown under it until the person accepts or rejects it. */
export interface RoutineProposalView {
  by: 'model' | 'person';
  /** The proposed step in words. */
  words: string;
  reason: string;
  at: string;
  /** Its crop picture's token, when it has one. */
  crop?: string;
}

export interface RoutineStepView {
  id: string;
  kind: 'click' | 'type' | 'key' | 'scroll';
  /** stepWords.describeStep, without the `[optional]` the toggle shows. */
  words: string;
  optional: boolean;
  /** The token of its crop picture (where the person clicked), asked for with `routineCrops`. */
  crop?: string;
  /** It types a text that may become a parameter (not a secret). */
  typesText: boolean;
  proposal?: RoutineProposalView;
}

export interface RoutineParameterView {
  name: string;
  description?: string;
  /** Shortened for the view; absent for a secret. */
  default?: string;
  secret: boolean;
}

export interface RoutineView {
  id: string;
  name: string;
  description?: string;
  origin: 'recorded' | 'imported';
  /** Recorded here, or imported and confirmed: its steps run without asking one by one. */
  trusted: boolean;
  parameters: RoutineParameterView[];
  steps: RoutineStepView[];
  runs: { successes: number; failures: number; lastRunAt?: string; lastFailure?: string };
  updatedAt: string;
}

/** Host → view. */
export type BrainHostMessage =
  | { type: 'graph'; graph: BrainGraphView }
  | { type: 'error'; text: string }
  /** `src` is a `data:image/…;base64,` URL, or null when the screen has no picture. */
  | { type: 'thumbnail'; key: string; src: string | null }
  /** The routines by name (a bounded number of `total`, see routineViewModel.ts), sent after each graph. */
  | { type: 'routines'; routines: RoutineView[]; total: number }
  /** The answer to `routineCrops`: `src` as for thumbnails, null when the token names no picture now. */
  | { type: 'routineCrops'; crops: Array<{ crop: string; src: string | null }> };
