// What GAI's language model tools do for VS Code, without VS Code types (unit-tested directly):
// the sentence a person confirms before an action ("Click **Save** in *gedit*"), and the call
// itself through the agent's runtime. VS Code's confirmation is the approval, so the runtime does
// not ask again; its tool profile, the app permissions and the stop still hold, and a refusal is a
// result that says why, never an exception.
import { errorMessage } from '../../common/errors';
import type { RiskLevel, ToolResult } from '../../tools/toolTypes';
import { NullLogger } from '../../common/logger';
import { describeAction, escapeMarkdown } from '../../tools/actionDescription';
import { ToolResults, toolResultContent } from '../../tools/toolResult';
import type { GaiParts } from '../gaiParts';
import { buildApprovalView } from '../chat/approvalView';
import type { LmToolSpec } from './lmToolsCatalog';

export type LmToolParts = Pick<GaiParts, 'agentRuntime' | 'desktop' | 'safety'>;

export interface LmToolsRunnerOptions {
  /** The agent's parts, built on first use (the agent bundle loads then, not at activation). */
  parts(): Promise<LmToolParts>;
  /** One line per call for the GAI log (the input as the runtime shows it: secrets masked). */
  log(line: string): void;
}

export interface PreparedLmCall {
  invocationMessage: string;
  /** Present for every call that may change something: VS Code asks the person first. */
  confirmation?: { title: string; message: string };
}

export class LmToolsRunner {
  private calls = 0;

  constructor(private readonly options: LmToolsRunnerOptions) {}

  /** Side-effect free (VS Code may not invoke after it): reads the active window, acts on nothing. */
  async prepare(spec: LmToolSpec, input: unknown): Promise<PreparedLmCall> {
    let parts: LmToolParts;
    try {
      parts = await this.options.parts();
    } catch (error) {
      // The call will fail the same way when invoked; still confirmed, in case it would not.
      const text = describeAction({ name: spec.tool, input: maskedWithoutTool(input) }).text;
      return { invocationMessage: spec.progress, confirmation: confirmation('action', `${text}\n\nGAI could not start its tools: ${escapeMarkdown(errorMessage(error))}`) };
    }
    const tool = parts.agentRuntime.registry.get(spec.tool);
    if (!tool) return { invocationMessage: `${spec.progress} (GAI has no ${spec.tool} tool here)` };
    const validation = tool.validateInput(input);
    if (!validation.ok) {
      // Nothing runs with an invalid input, but a read tool's never asks and an action's always does.
      const invalid = `GAI will refuse it: ${validation.errors.join('; ')}`;
      return tool.risk === 'read' ? { invocationMessage: spec.progress } : { invocationMessage: spec.progress, confirmation: confirmation(tool.risk, `Run **${escapeMarkdown(spec.tool)}**\n\n${escapeMarkdown(invalid)}`) };
    }
    const risk = tool.riskFor(validation.value);
    if (risk === 'read') return { invocationMessage: spec.progress };
    let publicInput: unknown;
    try {
      publicInput = await tool.publicInput(validation.value, { signal: new AbortController().signal, logger: new NullLogger() });
    } catch {
      // The tool's own secrecy check did not run: text it would type is not shown at all.
      publicInput = tool.typesText(input) ? withTextHidden(input) : maskedWithoutTool(input);
    }
    const view = await buildApprovalView(
      { call: { id: 'lm-prepare', name: spec.tool, input: publicInput }, risk, summary: '' },
      { desktop: parts.desktop.desktop, tools: parts.agentRuntime.registry, latestReading: () => parts.desktop.reader.latestSeen() },
    ).catch(() => describeAction({ name: spec.tool, input: publicInput }));
    const refused = parts.agentRuntime.policy.permits(tool) ? '' : `\n\nGAI's settings will refuse it: ${parts.agentRuntime.policy.refusal(tool)}.`;
    return { invocationMessage: spec.progress, confirmation: confirmation(risk, `${view.text}${refused}`) };
  }

  /** Runs the call; every failure (GAI not buildable, refused, cancelled) is a result. */
  async run(spec: LmToolSpec, input: unknown, signal: AbortSignal): Promise<ToolResult> {
    const started = performance.now();
    let parts: LmToolParts;
    try {
      parts = await this.options.parts();
    } catch (error) {
      return ToolResults.failure('FAILED', `GAI could not start its tools: ${errorMessage(error)}`, { hint: 'Fix the setting it names (GAI: Check Setup lists what is missing), then call the tool again.' });
    }
    // The person confirmed this call in VS Code: a stop they gave an earlier GAI request does not hold it back.
    parts.safety.clearStop();
    const call = { id: `lm-${(++this.calls).toString(36)}-${Date.now().toString(36)}`, name: spec.tool, input };
    const { result, publicCall } = await parts.agentRuntime.executeWithRecovery(call, signal, {}, { approval: 'skip' });
    const status = result.success ? 'ok' : (result.code ?? 'FAILED');
    this.options.log(`language model tool ${publicCall.name} ${JSON.stringify(publicCall.input)} confirmed-by=vscode result=${status} ${Math.round(performance.now() - started)}ms: ${result.observation}`);
    return result;
  }
}

/** The result for the model, the same JSON GAI's own models get; `imagesAttached` says whether the pictures go along as data parts. */
export function lmResultText(result: ToolResult, imagesAttached: boolean): string {
  const [first] = toolResultContent(result);
  const text = first?.type === 'text' ? first.text : JSON.stringify({ success: result.success, observation: result.observation });
  const count = result.images?.length ?? 0;
  if (count === 0) return text;
  const what = count === 1 ? 'The picture' : `The ${count} pictures`;
  return imagesAttached
    ? `${text}\n${what} follow${count === 1 ? 's' : ''} as image data.`
    : `${text}\n${what} could not be attached: this editor's language model tool results carry text only (VS Code API 1.105 has no image part). Read the screen with gai_ocr or gai_get_element_tree instead.`;
}

function confirmation(risk: RiskLevel, message: string): { title: string; message: string } {
  return { title: risk === 'system' ? 'Let GAI start a program?' : 'Let GAI act on the desktop?', message };
}

/**
 * Without the tool's own masking (GAI could not be built, or its publicInput failed): the text of
 * any input that says it is a secret is never shown, whichever tool it is for.
 */
function maskedWithoutTool(input: unknown): unknown {
  const secret = typeof input === 'object' && input !== null && (input as Record<string, unknown>).secret === true;
  return secret ? withTextHidden(input) : input;
}

function withTextHidden(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || !('text' in input)) return input;
  return { ...input, text: '••••• (hidden)' };
}
