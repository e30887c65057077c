import type { BrainDocument } from '../../navigation/store/brainTypes';
import type { ToolResult } from '../../tools/toolTypes';
import type { PathTool } from './serverPathTools';

// The resources of `gai mcp`: what the brain knows, and what the screen says now.

export const BRAIN_URI = 'gai://brain';
export const SCREEN_TEXT_URI = 'gai://screen/text';

/** The brain without its pixels and signatures: the screens, the paths between them, their tools. */
export function brainResource(document: BrainDocument, tools: readonly PathTool[]): unknown {
  return {
    updatedAt: document.updatedAt,
    nodes: document.nodes.map((node) => ({ key: node.key, label: node.label, programName: node.programName, windowTitle: node.windowTitle, visits: node.visits, lastSeen: node.lastSeen })),
    paths: document.paths.map((path) => ({
      id: path.id,
      from: path.from,
      to: path.to,
      targets: path.targets,
      steps: path.actions.length,
      successRate: path.metadata.successRate,
      usageCount: path.metadata.usageCount,
      lastUsedAt: path.metadata.lastUsedAt,
      ...(path.trust ? { imported: true, confirmed: path.trust.confirmedAt !== undefined } : {}),
    })),
    tools: tools.map((tool) => ({ name: tool.name, target: tool.target })),
  };
}

/** The OCR tool's lines, one per row; a withheld screen (a private window) says so instead. */
export function screenTextOf(result: ToolResult): string {
  const elements = (result.data as { elements?: Array<{ text?: unknown }> } | undefined)?.elements;
  if (!Array.isArray(elements)) return result.observation;
  return elements.map((element) => (typeof element.text === 'string' ? element.text : '')).join('\n');
}
