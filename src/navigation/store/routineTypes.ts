import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../common/schema';
import { Count, IsoTime, NodeKeyText, PointSchema, ThumbnailSchema } from './storedBasics';

// A routine: a task the person showed GAI once (Record Steps), kept as steps anchored on what
// the screen says (the accessible element, the visible text and two landmarks around it), not
// on where things were, so that it replays after the window moved, grew or changed its theme.

export const ROUTINE_ID_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';
export const PARAMETER_NAME_PATTERN = '^[a-z][a-z0-9_]{0,39}$';

const ShortText = Type.String({ maxLength: 300 });

/** An element of the accessibility tree as it was named when the step was recorded. */
export const ElementAnchorSchema = Type.Object(
  {
    role: Type.String({ minLength: 1, maxLength: 100 }),
    name: ShortText,
    /** Its named ancestors below the window, outermost first (a menu item's menu). */
    ancestors: Type.Array(Type.Object({ role: Type.String({ maxLength: 100 }), name: ShortText }, { additionalProperties: false }), { maxItems: 4 }),
    /** A check box's (radio's, switch's) state before the click. */
    checked: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** The top-level window the step acted in. */
export const WindowAnchorSchema = Type.Object(
  {
    /** The application (X11: WM_CLASS's class), compared without case. */
    app: Type.String({ maxLength: 200 }),
    title: Type.String({ maxLength: 500 }),
    /** The point was in an open menu or list of the app: a replay clicks it only in such a popup. */
    popup: Type.Optional(Type.Literal(true)),
    /** Keys went to a dialog of the app: a replay sends them only to a window of that title. */
    dialog: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);

/** Text read near the point: where the point lies from the text's centre, in the pixels of the time. */
export const LandmarkSchema = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: 200 }),
    dx: Type.Number(),
    dy: Type.Number(),
    height: Type.Number({ minimum: 1 }),
    /** The text's width then: its width now says how much the look has grown (a box's height varies with what OCR took in). */
    width: Type.Optional(Type.Number({ minimum: 1 })),
  },
  { additionalProperties: false },
);

export const RoutineAnchorsSchema = Type.Object(
  {
    window: Type.Optional(WindowAnchorSchema),
    element: Type.Optional(ElementAnchorSchema),
    /** The visible text at the point (the element's label as drawn). */
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    landmarks: Type.Array(LandmarkSchema, { maxItems: 2 }),
    /** Screen pixels of the point when recorded: shown to people, and only picks among equal matches. */
    point: Type.Optional(PointSchema),
    /** The point inside the window, as fractions of its width and height. */
    offset: Type.Optional(Type.Object({ x: Type.Number({ minimum: 0, maximum: 1 }), y: Type.Number({ minimum: 0, maximum: 1 }) }, { additionalProperties: false })),
    /** A small picture around the point, secret fields blacked out: for review, never matched blindly. */
    crop: Type.Optional(ThumbnailSchema),
    /** The brain's node of the screen before and after the step, when known. */
    before: Type.Optional(NodeKeyText),
    after: Type.Optional(NodeKeyText),
  },
  { additionalProperties: false },
);

const StepBase = {
  /** Stable across edits (reorder, delete), so a proposal names the step it changes. */
  id: Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$' }),
  /** An optional step whose anchor is not found is skipped instead of stopping the replay. */
  optional: Type.Optional(Type.Literal(true)),
  anchors: RoutineAnchorsSchema,
};

export const ClickStepSchema = Type.Object(
  { ...StepBase, kind: Type.Literal('click'), button: StringEnum(['left', 'right', 'middle'] as const), double: Type.Optional(Type.Literal(true)) },
  { additionalProperties: false },
);

export const TypeStepSchema = Type.Object(
  {
    ...StepBase,
    kind: Type.Literal('type'),
    /** What was typed, with parameters as `{name}` (`{{` and `}}` for braces); absent for a secret. */
    text: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000 })),
    /** A password or key: never stored; the replay asks for it (or takes it from a secret parameter). */
    secret: Type.Optional(Type.Literal(true)),
    length: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    pressEnter: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);

export const KeyStepSchema = Type.Object(
  {
    ...StepBase,
    kind: Type.Literal('key'),
    key: Type.String({ minLength: 1, maxLength: 40 }),
    modifiers: Type.Array(StringEnum(['command', 'ctrl', 'alt', 'shift', 'super'] as const), { maxItems: 5 }),
  },
  { additionalProperties: false },
);

export const ScrollStepSchema = Type.Object(
  { ...StepBase, kind: Type.Literal('scroll'), direction: StringEnum(['up', 'down', 'left', 'right'] as const), amount: Type.Integer({ minimum: 1, maximum: 50 }) },
  { additionalProperties: false },
);

export const RoutineStepSchema = Type.Union([ClickStepSchema, TypeStepSchema, KeyStepSchema, ScrollStepSchema]);

export const RoutineParameterSchema = Type.Object(
  {
    name: Type.String({ pattern: PARAMETER_NAME_PATTERN }),
    description: Type.Optional(Type.String({ maxLength: 300 })),
    /** The value typed when recorded: used when a run gives none (absent for secrets). */
    default: Type.Optional(Type.String({ maxLength: 10_000 })),
    secret: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);

/** A change a replay proposes to a step it could not find (never applied until the person accepts). */
export const RoutineProposalSchema = Type.Object(
  {
    stepId: Type.String({ minLength: 1, maxLength: 40 }),
    reason: Type.String({ maxLength: 500 }),
    /** Who found the new anchors: the model, or the person showing the step again. */
    by: StringEnum(['model', 'person'] as const),
    step: RoutineStepSchema,
    at: IsoTime,
  },
  { additionalProperties: false },
);

export const RoutineSchema = Type.Object(
  {
    id: Type.String({ pattern: ROUTINE_ID_PATTERN }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    parameters: Type.Array(RoutineParameterSchema, { maxItems: 20 }),
    steps: Type.Array(RoutineStepSchema, { minItems: 1, maxItems: 200 }),
    /** recorded: shown here by the person (trusted); imported: from a file, asks at every step until confirmed. */
    origin: StringEnum(['recorded', 'imported'] as const),
    confirmedAt: Type.Optional(IsoTime),
    runs: Type.Object(
      {
        successes: Count,
        failures: Count,
        lastRunAt: Type.Optional(IsoTime),
        lastFailure: Type.Optional(Type.Object({ at: IsoTime, step: Type.Integer({ minimum: 0 }), reason: Type.String({ maxLength: 500 }) }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
    proposals: Type.Array(RoutineProposalSchema, { maxItems: 20 }),
    createdAt: IsoTime,
    updatedAt: IsoTime,
    /** Bumped on every edit; the higher revision's steps win when documents merge. */
    revision: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);

export type ElementAnchor = Static<typeof ElementAnchorSchema>;
export type WindowAnchor = Static<typeof WindowAnchorSchema>;
export type Landmark = Static<typeof LandmarkSchema>;
export type RoutineAnchors = Static<typeof RoutineAnchorsSchema>;
export type ClickStep = Static<typeof ClickStepSchema>;
export type TypeStep = Static<typeof TypeStepSchema>;
export type KeyStep = Static<typeof KeyStepSchema>;
export type ScrollStep = Static<typeof ScrollStepSchema>;
export type RoutineStep = Static<typeof RoutineStepSchema>;
export type RoutineParameter = Static<typeof RoutineParameterSchema>;
export type RoutineProposal = Static<typeof RoutineProposalSchema>;
export type Routine = Static<typeof RoutineSchema>;
