import { quoteScreenText } from '../../common/screenText';
import type { ToolResult } from '../../tools/toolTypes';
import { describeCurrentNode } from '../store/brainStats';
import type { BrainProvider } from '../navigationBrain';
import { toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../../tools/toolBase';
import { ToolResults } from '../../tools/toolResult';
import { withInstructionFlags } from '../../tools/desktop/untrustedScreen';

const schema = toolInput({});

/** Which known screen this is and where the brain can go from here (seed 000 §4.2). */
export class GetCurrentNodeTool extends ToolBase<typeof schema> {
  readonly name = 'get_current_node';
  readonly description =
    'Identify the current screen in the navigation brain (no model): its node key and label, the learned paths from here ' +
    '(id, destination, number of actions, success rate, usage) and graph statistics.';
  readonly inputSchema = schema;
  readonly risk = 'read' as const;

  constructor(private readonly brain: BrainProvider) {
    super();
  }

  async execute(_input: Record<string, never>, context: ToolContext): Promise<ToolResult> {
    const brain = await this.brain();
    const found = await brain.identifyCurrentNode(context.signal);
    const data = { ...describeCurrentNode(brain.store.document, found.node), matchedBy: found.matchedBy, similarity: Number(found.similarity.toFixed(3)) };
    const paths = data.availablePaths.length;
    // A node's label is a window's title or the screen's text: quoted, and flagged when it gives orders.
    const result = ToolResults.success(
      `On ${quoteScreenText(found.node.label)} (${found.node.key}${found.isNew ? ', new' : ''}); ${paths} learned path(s) from here, ${data.graphStats.totalNodes} node(s) known.`,
      data,
    );
    return withInstructionFlags(result, [{ text: found.node.label, source: 'the current screen\'s label' }]);
  }
}
