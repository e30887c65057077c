import type { NativeComputerUse } from '../model/llmProvider';
import type { ToolDefinition } from '../model/messages';
import type { NativeComputerTool } from '../tools/nativeComputer';
import type { ToolRuntime } from '../runtime/toolRuntime';

export interface TurnTools {
  tools: ToolDefinition[];
  /** The native computer tool the turn offers, to tell the model its display size each turn. */
  computer?: NativeComputerTool;
}

/**
 * The tools a turn offers (those the runtime's policy permits). A tool that can be the model's
 * native computer tool is offered only in that form, to a model that speaks it: it adapts to the
 * model's image limits and chooses the tools offered beside it. Any other model gets every tool
 * but that one. The agent asks the tools; it knows none by name.
 */
export function turnTools(runtime: Pick<ToolRuntime, 'getDefinitions' | 'registry'>, native: NativeComputerUse | undefined): TurnTools {
  const definitions = runtime.getDefinitions();
  let computer: NativeComputerTool | undefined;
  const others = definitions.filter((definition) => {
    const candidate = runtime.registry.get(definition.name)?.asNativeComputer();
    computer ??= candidate;
    return candidate === undefined;
  });
  if (!native || !computer) return { tools: others };
  computer.adaptTo(native);
  return { tools: computer.offeredWith(definitions), computer };
}
