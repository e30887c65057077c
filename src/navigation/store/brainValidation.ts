import { TypeCompiler } from '@sinclair/typebox/compiler';
import { GaiError } from '../../common/errors';
import { compileValidator, type InputValidator } from '../../common/schema';
import { ACTION_SCHEMAS, BrainDocumentSchema, LAUNCHER_KEY, nodeKey, type BrainDocument, type PathAction } from './brainTypes';
import { recomputeMetadata } from './brainRecords';
import { routineProblems } from './routineRecords';
import { signatureProblem } from '../recognition/screenSignature';

// Checks a brain document (on load, on import, before every write) and names each bad field,
// e.g. `paths.3.actions.0.input.text: required field is missing`.

export type DocumentCheck = { ok: true; document: BrainDocument } | { ok: false; errors: string[] };

const MAX_ERRORS = 20;

// The compiled check is the fast path (a 5000-path document in milliseconds); the validator
// that explains errors runs only when it fails.
const documentCheck = TypeCompiler.Compile(BrainDocumentSchema);
const documentValidator = compileValidator(BrainDocumentSchema);
const actionValidators = new Map<string, InputValidator<unknown>>(
  Object.entries(ACTION_SCHEMAS).map(([tool, schema]) => [tool, compileValidator(schema) as InputValidator<unknown>]),
);
const TOOL_NAMES = Object.keys(ACTION_SCHEMAS).map((t) => JSON.stringify(t)).join(', ');

/** Checks a parsed document; a valid one is returned as is (counts without tallies normalised in place). */
export function validateDocument(value: unknown): DocumentCheck {
  if (!documentCheck.Check(value)) return { ok: false, errors: explainSchemaErrors(value).slice(0, MAX_ERRORS) };
  const document = value as BrainDocument;
  const errors = [
    ...document.paths.flatMap((path, p) => path.actions.flatMap((action, a) => actionErrors(action, `paths.${p}.actions.${a}`))),
    ...checkReferences(document),
    ...checkRoutines(document),
  ];
  if (errors.length > 0) return { ok: false, errors: errors.slice(0, MAX_ERRORS) };
  normalizeCounts(document);
  return { ok: true, document };
}

function explainSchemaErrors(value: unknown): string[] {
  const actionErrors = checkActions(value);
  const checked = documentValidator.validate(value);
  if (checked.ok) return actionErrors;
  // A union's error says only "expected one of the action shapes": the per-tool errors name the field.
  const prefixes = actionErrors.map((e) => e.split(/[.:]/).slice(0, 4).join('.'));
  const rest = checked.errors.filter((e) => !prefixes.some((p) => e.startsWith(`${p}.`) || e.startsWith(`${p}:`))).map(renameRoot);
  return [...actionErrors, ...rest];
}

/** validateDocument, throwing GaiError BRAIN_INVALID with every problem in the message. */
export function assertDocument(value: unknown, what = 'brain document'): BrainDocument {
  const checked = validateDocument(value);
  if (checked.ok) return checked.document;
  throw new GaiError('BRAIN_INVALID', `Invalid ${what}: ${checked.errors.join('; ')}`);
}

function checkActions(value: unknown): string[] {
  const errors: string[] = [];
  const paths = isObject(value) && Array.isArray(value.paths) ? value.paths : [];
  paths.forEach((path: unknown, p) => {
    if (!isObject(path) || !Array.isArray(path.actions)) return;
    path.actions.forEach((action: unknown, a) => {
      const field = `paths.${p}.actions.${a}`;
      if (!isObject(action)) return void errors.push(`${field}: expected an object`);
      const validator = typeof action.tool === 'string' ? actionValidators.get(action.tool) : undefined;
      if (!validator) return void errors.push(`${field}.tool: expected one of ${TOOL_NAMES}, got ${JSON.stringify(action.tool) ?? 'nothing'}`);
      const checked = validator.validate(action);
      if (!checked.ok) return void errors.push(...checked.errors.map((e) => `${field}.${e.replace(/^input: /, '')}`));
      errors.push(...actionErrors(action as PathAction, field));
    });
  });
  return errors;
}

/** What the schema cannot say about an action. */
function actionErrors(action: PathAction, field: string): string[] {
  return action.tool === 'type_text' ? typeErrors(action, field) : clickErrors(action, field);
}

/** A typed step has its text, or (a secret, never stored) its length: one or the other. */
function typeErrors(action: Extract<PathAction, { tool: 'type_text' }>, field: string): string[] {
  const { text, secret, length } = action.input;
  if (text !== undefined) return secret !== undefined || length !== undefined ? [`${field}.input: a step with text has no secret or length`] : [];
  if (secret !== true) return [`${field}.input.text: required (or secret: true with a length)`];
  return length === undefined ? [`${field}.input.length: required for a secret step`] : [];
}

/** What the schema cannot say about a click: it needs a text or a point to click. */
function clickErrors(action: PathAction, field: string): string[] {
  if (action.tool !== 'click' || action.input.text !== undefined) return [];
  const errors = action.point === undefined ? [`${field}.input.text: required (or a point)`] : [];
  if (action.input.near !== undefined || action.input.occurrence !== undefined) errors.push(`${field}.input: near and occurrence need text`);
  return errors;
}

function checkReferences(document: BrainDocument): string[] {
  const errors: string[] = [];
  const nodeIndex = new Map<string, number>();
  document.nodes.forEach((node, i) => {
    const expected = nodeKey(node.programName, node.stateHash);
    if (node.key !== expected) errors.push(`nodes.${i}.key: expected ${JSON.stringify(expected)} (programName::stateHash), got ${JSON.stringify(node.key)}`);
    const earlier = nodeIndex.get(node.key);
    if (earlier !== undefined) errors.push(`nodes.${i}.key: duplicate of nodes.${earlier}`);
    const signature = node.signature ? signatureProblem(node.signature) : undefined;
    if (signature) errors.push(`nodes.${i}.signature.${signature}`);
    else nodeIndex.set(node.key, i);
  });
  const pathIndex = new Map<string, number>();
  document.paths.forEach((path, i) => {
    const earlier = pathIndex.get(path.id);
    if (earlier !== undefined) errors.push(`paths.${i}.id: duplicate of paths.${earlier}`);
    else pathIndex.set(path.id, i);
    if (path.from !== LAUNCHER_KEY && !nodeIndex.has(path.from)) errors.push(`paths.${i}.from: unknown node ${JSON.stringify(path.from)}`);
    if (!nodeIndex.has(path.to)) errors.push(`paths.${i}.to: unknown node ${JSON.stringify(path.to)}`);
  });
  return errors;
}

function checkRoutines(document: BrainDocument): string[] {
  const seen = new Map<string, number>();
  return document.routines.flatMap((routine, i) => {
    const earlier = seen.get(routine.id);
    seen.set(routine.id, i);
    return [...(earlier !== undefined ? [`routines.${i}.id: duplicate of routines.${earlier}`] : []), ...routineProblems(routine, `routines.${i}`)];
  });
}

/** Counts without tallies (hand-written or imported) become one tally, so later merges keep them. */
function normalizeCounts(document: BrainDocument): void {
  for (const path of document.paths) {
    const metadata = path.metadata;
    if (Object.keys(metadata.tally).length === 0 && metadata.successes + metadata.failures > 0) {
      metadata.tally.imported = {
        successes: metadata.successes,
        failures: metadata.failures,
        durationMs: metadata.avgDurationMs * metadata.successes,
      };
    }
    recomputeMetadata(metadata);
  }
}

function renameRoot(error: string): string {
  return error.replace(/^input: /, 'document: ');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
