import { Type, type Static, type TObject } from '@sinclair/typebox';
import { StringEnum } from '../../common/schema';
import { Count, IsoTime, NodeKeyText, PointSchema, ThumbnailSchema } from './storedBasics';
import { RoutineSchema } from './routineTypes';

// The brain's stored document, declared once with TypeBox: the schemas validate brain.json on
// load and on import, and the static types below are derived from them.

/** The version this code writes; older documents are migrated on load (brainMigrations.ts). */
export const BRAIN_VERSION = 3;

/**
 * The pseudo-node every node reaches (the seed's Spotlight node): paths that start by
 * launching an app are stored from here and can be used from anywhere.
 */
export const LAUNCHER_KEY = '@launcher';


// ---- Nodes -----------------------------------------------------------------------------

export const FingerprintSchema = Type.Object(
  {
    /** The window title, normalised, volatile tokens dropped. */
    title: Type.String({ maxLength: 300 }),
    /** Stable OCR lines, normalised, in reading order, without duplicates (bounded). */
    lines: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 }),
    /** Normalised lines that stood out (tallest text), most prominent first. */
    headings: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 8 }),
  },
  { additionalProperties: false },
);

/** Bounds of a node's screen signature (screenSignature.ts): a coarse grid, at most a few KB. */
export const SIGNATURE_GRID = { maxColumns: 48, maxRows: 32 } as const;

/**
 * A cheap signature of the screen state, checked before any OCR: the window's canonical title
 * and size, a grid of its mean brightness per cell, the cells seen to change while OCR said it
 * was still this node (a clock), and the accessibility tree's digest where there is one.
 */
export const ScreenSignatureSchema = Type.Object(
  {
    title: Type.String({ maxLength: 300 }),
    width: Type.Integer({ minimum: 1, maximum: 100_000 }),
    height: Type.Integer({ minimum: 1, maximum: 100_000 }),
    columns: Type.Integer({ minimum: 1, maximum: SIGNATURE_GRID.maxColumns }),
    rows: Type.Integer({ minimum: 1, maximum: SIGNATURE_GRID.maxRows }),
    /** Base64, one byte (mean luminance) per cell, row by row: columns × rows bytes. */
    cells: Type.String({ maxLength: 4 * Math.ceil((SIGNATURE_GRID.maxColumns * SIGNATURE_GRID.maxRows) / 3) }),
    /** Base64 bit set, one bit per cell: cells that changed on a screen OCR still called this node. */
    volatile: Type.String({ maxLength: 4 * Math.ceil((SIGNATURE_GRID.maxColumns * SIGNATURE_GRID.maxRows) / 24) }),
    tree: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** Readings confirmed by OCR that went into it. */
    seen: Count,
  },
  { additionalProperties: false },
);

export const BrainNodeSchema = Type.Object(
  {
    /** `${programName}::${stateHash}`. */
    key: NodeKeyText,
    programName: Type.String({ minLength: 1, maxLength: 200 }),
    stateHash: Type.String({ minLength: 1, maxLength: 64 }),
    label: Type.String({ maxLength: 200 }),
    windowTitle: Type.String({ maxLength: 500 }),
    fingerprint: FingerprintSchema,
    firstSeen: IsoTime,
    lastSeen: IsoTime,
    visits: Count,
    /** When the label or thumbnail last changed: the newer side wins when documents merge. */
    updatedAt: IsoTime,
    thumbnail: Type.Optional(ThumbnailSchema),
    /** Lets a replay recognise the screen without OCR (version 2; older nodes get one when next read). */
    signature: Type.Optional(ScreenSignatureSchema),
  },
  { additionalProperties: false },
);

// ---- Actions: each is a tool name and the input it replays through ---------------------

const Point = PointSchema;
/** The node seen right after this step while learning; lets a replay check progress. */
const Reaches = Type.Optional(NodeKeyText);

export const ClickActionSchema = Type.Object(
  {
    tool: Type.Literal('click'),
    input: Type.Object(
      {
        text: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
        near: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
        occurrence: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        button: Type.Optional(StringEnum(['left', 'right', 'middle'] as const)),
        doubleClick: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    /** Screen pixels seen when learned: used only when the text is not found (or there is none). */
    point: Type.Optional(Point),
    reaches: Reaches,
  },
  { additionalProperties: false },
);

export const TypeActionSchema = Type.Object(
  {
    tool: Type.Literal('type_text'),
    input: Type.Object(
      {
        /** Absent for a secret: a password or key is never stored, only how long it was. */
        text: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000 })),
        /** The typed text was a secret; a replay asks the person for it (see brainValidation: text xor secret). */
        secret: Type.Optional(Type.Literal(true)),
        length: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
        pressEnter: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    reaches: Reaches,
  },
  { additionalProperties: false },
);

export const KeyActionSchema = Type.Object(
  {
    tool: Type.Literal('press_key'),
    input: Type.Object(
      {
        key: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20 })]),
        modifiers: Type.Optional(Type.Array(StringEnum(['command', 'ctrl', 'alt', 'shift'] as const), { maxItems: 4 })),
      },
      { additionalProperties: false },
    ),
    reaches: Reaches,
  },
  { additionalProperties: false },
);

export const ScrollActionSchema = Type.Object(
  {
    tool: Type.Literal('scroll'),
    input: Type.Object(
      {
        direction: StringEnum(['up', 'down', 'left', 'right'] as const),
        amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
        text: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
      },
      { additionalProperties: false },
    ),
    point: Type.Optional(Point),
    reaches: Reaches,
  },
  { additionalProperties: false },
);

export const LaunchActionSchema = Type.Object(
  {
    tool: Type.Literal('launch_app'),
    input: Type.Object({ appName: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    reaches: Reaches,
  },
  { additionalProperties: false },
);

/** Not a registered tool: the replayer waits for the screen to settle (desktop/settle.ts). */
export const WaitActionSchema = Type.Object(
  {
    tool: Type.Literal('wait'),
    input: Type.Object(
      { until: Type.Literal('settled'), timeoutMs: Type.Integer({ minimum: 50, maximum: 60_000 }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** Per tool name, the schema of that action: validation names the field inside the right one. */
export const ACTION_SCHEMAS = {
  click: ClickActionSchema,
  type_text: TypeActionSchema,
  press_key: KeyActionSchema,
  scroll: ScrollActionSchema,
  launch_app: LaunchActionSchema,
  wait: WaitActionSchema,
} as const satisfies Record<string, TObject>;

export const PathActionSchema = Type.Union([ClickActionSchema, TypeActionSchema, KeyActionSchema, ScrollActionSchema, LaunchActionSchema, WaitActionSchema]);

// ---- Paths -----------------------------------------------------------------------------

/** Counts one writer (one machine) has added; merged by taking each writer's maximum. */
export const TallySchema = Type.Object(
  { successes: Count, failures: Count, durationMs: Type.Number({ minimum: 0 }) },
  { additionalProperties: false },
);

export const PathMetadataSchema = Type.Object(
  {
    successRate: Type.Number({ minimum: 0, maximum: 1 }),
    usageCount: Count,
    successes: Count,
    failures: Count,
    /** Of successful runs. */
    avgDurationMs: Type.Number({ minimum: 0 }),
    createdAt: IsoTime,
    lastUsedAt: IsoTime,
    lastFailure: Type.Optional(
      Type.Object(
        { at: IsoTime, step: Type.Integer({ minimum: 0 }), reason: Type.String({ maxLength: 500 }) },
        { additionalProperties: false },
      ),
    ),
    /** The source of the counts above, by writer id; see brainRecords.recomputeMetadata. */
    tally: Type.Record(Type.String({ minLength: 1, maxLength: 64 }), TallySchema, { maxProperties: 64 }),
  },
  { additionalProperties: false },
);

export const PathTrustSchema = Type.Object(
  {
    origin: Type.Literal('imported'),
    importedAt: IsoTime,
    /** Set when the person looked at every step and confirmed the path. */
    confirmedAt: Type.Optional(IsoTime),
  },
  { additionalProperties: false },
);

export const BrainPathSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9_.:-]+$' }),
    from: NodeKeyText,
    to: NodeKeyText,
    /** Target descriptions this path has served, normalised (targetMatch.normalizeTarget). */
    targets: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50 }),
    actions: Type.Array(PathActionSchema, { minItems: 1, maxItems: 100 }),
    metadata: PathMetadataSchema,
    /**
     * Where the steps came from. Absent: learned on this machine, each step approved as it ran.
     * Imported paths are untrusted until the person confirms them: their steps ask when replayed.
     */
    trust: Type.Optional(PathTrustSchema),
    /** Bumped on every change; the higher revision's actions win when documents merge. */
    revision: Type.Integer({ minimum: 1 }),
    updatedAt: IsoTime,
  },
  { additionalProperties: false },
);

/** An explicit forget, kept so that merging an older copy does not bring the item back. */
export const TombstoneSchema = Type.Object(
  { kind: StringEnum(['node', 'path', 'routine'] as const), id: Type.String({ minLength: 1, maxLength: 300 }), at: IsoTime },
  { additionalProperties: false },
);

export const BrainDocumentSchema = Type.Object(
  {
    version: Type.Literal(BRAIN_VERSION),
    nodes: Type.Array(BrainNodeSchema, { maxItems: 100_000 }),
    paths: Type.Array(BrainPathSchema, { maxItems: 100_000 }),
    /** Tasks the person showed once (Record Steps), replayed by their anchors (version 3). */
    routines: Type.Array(RoutineSchema, { maxItems: 10_000 }),
    forgotten: Type.Array(TombstoneSchema, { maxItems: 100_000 }),
    updatedAt: IsoTime,
  },
  { additionalProperties: false },
);

export type Fingerprint = Static<typeof FingerprintSchema>;
export type Thumbnail = Static<typeof ThumbnailSchema>;
export type StoredSignature = Static<typeof ScreenSignatureSchema>;
export type BrainNode = Static<typeof BrainNodeSchema>;
export type ClickAction = Static<typeof ClickActionSchema>;
export type TypeAction = Static<typeof TypeActionSchema>;
export type KeyAction = Static<typeof KeyActionSchema>;
export type ScrollAction = Static<typeof ScrollActionSchema>;
export type LaunchAction = Static<typeof LaunchActionSchema>;
export type WaitAction = Static<typeof WaitActionSchema>;
export type PathAction = Static<typeof PathActionSchema>;
export type ActionTool = PathAction['tool'];
export type Tally = Static<typeof TallySchema>;
export type PathMetadata = Static<typeof PathMetadataSchema>;
export type PathTrust = Static<typeof PathTrustSchema>;
export type BrainPath = Static<typeof BrainPathSchema>;
export type Tombstone = Static<typeof TombstoneSchema>;
export type BrainDocument = Static<typeof BrainDocumentSchema>;

export function nodeKey(programName: string, stateHash: string): string {
  return `${programName}::${stateHash}`;
}

/** Milliseconds since the epoch as stored (ISO 8601, UTC). */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** A stored time as milliseconds; 0 for anything unparsable, so it sorts as oldest. */
export function timeOf(iso: string | undefined): number {
  const ms = iso === undefined ? NaN : Date.parse(iso);
  return Number.isFinite(ms) ? ms : 0;
}
