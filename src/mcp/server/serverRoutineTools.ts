import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, GaiError, isGaiError } from '../../common/errors';
import { ToolResults } from '../../tools/toolResult';
import type { NavigationBrain } from '../../navigation/navigationBrain';
import { describeStep } from '../../navigation/routines/stepWords';
import type { BrainDocument } from '../../navigation/store/brainTypes';
import type { ToolResult } from '../../tools/toolTypes';
import { MAX_TOOL_NAME_CHARS } from './serverPathTools';

// Each recorded routine is a tool of its own (`run_export_report`) whose parameters are its
// input schema, so another agent runs what the person showed without a model; two tools start
// and stop a recording of the person's own input.

export const START_RECORDING = 'start_recording';
export const STOP_RECORDING = 'stop_recording';
const PREFIX = 'run_';

export interface RoutineTool {
  name: string;
  routineId: string;
  tool: Tool;
}

export function routineTools(document: BrainDocument, reserved: ReadonlySet<string>): RoutineTool[] {
  const taken = new Set(reserved);
  const tools: RoutineTool[] = [];
  for (const routine of [...document.routines].sort((a, b) => a.id.localeCompare(b.id))) {
    let name = routineToolName(routine.id);
    for (let n = 2; taken.has(name); n++) name = `${name.slice(0, MAX_TOOL_NAME_CHARS - 3)}_${n}`;
    taken.add(name);
    const properties = Object.fromEntries(
      routine.parameters.map((p) => [p.name, { type: 'string', description: p.description ?? (p.secret ? 'a secret (never stored)' : `the text typed when recorded: ${JSON.stringify(p.default ?? '')}`) }]),
    );
    const required = routine.parameters.filter((p) => p.default === undefined && !p.secret).map((p) => p.name);
    const steps = routine.steps.slice(0, 6).map((s) => describeStep(s)).join('; ');
    tools.push({
      name,
      routineId: routine.id,
      tool: {
        name,
        description: `Runs the routine "${routine.name}" the person recorded (${routine.steps.length} steps) without a model; each step found by its anchors, stopping at the first it cannot find.${routine.description ? ` ${routine.description}` : ''} Steps: ${steps}${routine.steps.length > 6 ? '; …' : ''}`,
        inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
        annotations: { title: `Run ${routine.name}`, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      },
    });
  }
  return tools;
}

export const RECORDING_TOOLS: Tool[] = [
  {
    name: START_RECORDING,
    description: 'Starts recording the person doing a task on the desktop (their clicks, keys, typing, scrolls) as a routine GAI replays later without a model. Tell the person to do the task, then call stop_recording.',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1, maxLength: 100, description: 'the routine\'s name, e.g. "Export report"' } },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { title: 'Start recording', readOnlyHint: true, openWorldHint: false },
  },
  {
    name: STOP_RECORDING,
    description: 'Stops the recording and keeps it as a routine (offered as its own run_* tool). parameters: texts the person typed that become parameters, e.g. {"month": "March"}.',
    inputSchema: {
      type: 'object',
      properties: {
        parameters: { type: 'object', additionalProperties: { type: 'string' }, description: 'parameter name → the text typed when recorded' },
        description: { type: 'string', maxLength: 500 },
        cancel: { type: 'boolean', description: 'drop the recording instead of keeping it' },
      },
      additionalProperties: false,
    },
    annotations: { title: 'Stop recording', readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
];

/** Runs a recording tool or a routine tool; failures are results with a code, never exceptions. */
export async function callRoutineTool(brain: NavigationBrain, name: string, routineId: string | undefined, input: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
  const started = performance.now();
  const timed = (result: ToolResult): ToolResult => ({ ...result, durationMs: performance.now() - started });
  try {
    if (name === START_RECORDING) {
      const routineName = typeof input.name === 'string' ? input.name : '';
      await brain.routines.startRecording(routineName);
      return timed(ToolResults.success(`Recording "${routineName.trim()}": the person can do the task now; call ${STOP_RECORDING} when they are done.`, { recording: routineName.trim() }));
    }
    if (name === STOP_RECORDING) {
      if (input.cancel === true) {
        const dropped = await brain.routines.cancelRecording();
        return timed(ToolResults.success(dropped ? 'The recording was dropped; nothing kept.' : 'No recording was under way.'));
      }
      const parameters = stringRecord(input.parameters, 'parameters');
      const { routine, recording } = await brain.routines.stopRecording({ parameters, ...(typeof input.description === 'string' ? { description: input.description } : {}) });
      const steps = routine.steps.map((s, i) => `${i + 1}. ${describeStep(s)}`).join('\n');
      return timed(
        ToolResults.success(`Kept the routine "${routine.name}" (${routine.steps.length} steps):\n${steps}`, {
          id: routine.id,
          tool: routineToolName(routine.id),
          parameters: routine.parameters.map((p) => p.name),
          typed: recording.typed,
        }),
      );
    }
    const params = stringRecord(input, 'input');
    const report = await brain.routines.run(routineId ?? name, params, { signal });
    const lines = report.steps.map((s) => `${s.ok ? '✓' : s.skipped ? '–' : '✗'} ${s.action}${s.via ? ` (by ${s.via})` : ''}`).join('\n');
    const data = { ok: report.ok, modelCalls: report.modelCalls, steps: report.steps.map((s) => ({ action: s.action, ok: s.ok, via: s.via, skipped: s.skipped })) };
    if (report.ok) return timed(ToolResults.success(`Ran "${report.routine}": ${report.steps.length} step(s), no model.\n${lines}`, data));
    const why = report.reason ?? 'a step failed';
    return timed(ToolResults.failure(report.denied ? 'DENIED' : 'NOT_FOUND', why, { observation: `Stopped "${report.routine}" at ${why}. Nothing after it was done.\n${lines}`, data }));
  } catch (error) {
    if (signal.aborted) return timed(ToolResults.cancelled(name));
    const code = isGaiError(error, 'INVALID_INPUT') || isGaiError(error, 'BRAIN_NOT_FOUND') ? 'INVALID_INPUT' : isGaiError(error, 'UNAVAILABLE') ? 'UNAVAILABLE' : 'FAILED';
    return timed(ToolResults.failure(code, errorMessage(error), { observation: `${name} did not run: ${errorMessage(error)}` }));
  }
}

export function routineToolName(id: string): string {
  return `${PREFIX}${id.replace(/-/g, '_')}`.slice(0, MAX_TOOL_NAME_CHARS).replace(/_+$/, '');
}

function stringRecord(value: unknown, field: string): Record<string, string> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new GaiError('INVALID_INPUT', `${field}: expected an object of texts`);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw new GaiError('INVALID_INPUT', `${field}.${key}: expected a text, got ${typeof item}`);
    out[key] = item;
  }
  return out;
}
