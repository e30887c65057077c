// Which GAI tools VS Code's language models (Copilot's agent mode) may call, under what names,
// and the package.json entries that declare them. The input schemas are the tools' own TypeBox
// schemas: test/vscodeGlue/lmToolsManifest.test.ts fails when package.json drifts from them.
// No vscode import: the manifest test and the tool runner use it directly.
import type { JsonObjectSchema } from '../../model/messages';
import type { RiskLevel } from '../../tools/toolTypes';

export interface LmToolSpec {
  /** The GAI tool's name in the registry. */
  tool: string;
  displayName: string;
  /** For people, in the tools picker. */
  userDescription: string;
  /** A codicon for the tools picker. */
  icon: string;
  /** Said after the tool's own description, to the model (what differs when called from VS Code). */
  modelNote?: string;
  /** Shown while it runs. */
  progress: string;
}

/** The tag every GAI tool carries in `vscode.lm.tools`. */
export const GAI_TAG = 'gai';

export const LM_TOOLS: readonly LmToolSpec[] = [
  {
    tool: 'screen_capture',
    displayName: 'GAI: Screen Capture',
    userDescription: 'Takes a screenshot of the desktop (or a region of it).',
    icon: '$(device-camera)',
    modelNote: 'Where the editor cannot attach the picture to a tool result, the result says so; use gai_ocr or gai_get_element_tree to read the screen then.',
    progress: 'Taking a screenshot',
  },
  { tool: 'ocr', displayName: 'GAI: Read Screen Text', userDescription: 'Reads the text on the screen with OCR, with the position of every word.', icon: '$(eye)', progress: 'Reading the screen' },
  { tool: 'get_element_tree', displayName: 'GAI: Accessibility Tree', userDescription: "Lists the active window's controls from the accessibility tree.", icon: '$(list-tree)', progress: 'Reading the accessibility tree' },
  { tool: 'click', displayName: 'GAI: Click', userDescription: 'Clicks a text on the screen or a point (asks first).', icon: '$(target)', progress: 'Clicking' },
  { tool: 'type_text', displayName: 'GAI: Type Text', userDescription: 'Types text into the focused field (asks first).', icon: '$(keyboard)', progress: 'Typing' },
  { tool: 'press_key', displayName: 'GAI: Press Key', userDescription: 'Presses a key or a shortcut (asks first).', icon: '$(record-keys)', progress: 'Pressing a key' },
  { tool: 'scroll', displayName: 'GAI: Scroll', userDescription: 'Scrolls with the mouse wheel (asks first).', icon: '$(fold-down)', progress: 'Scrolling' },
  { tool: 'drag', displayName: 'GAI: Drag', userDescription: 'Drags with the mouse from one point to another (asks first).', icon: '$(move)', progress: 'Dragging' },
  { tool: 'launch_app', displayName: 'GAI: Launch App', userDescription: 'Starts a desktop application (asks first; needs the "full" tool profile or an allow entry).', icon: '$(rocket)', progress: 'Starting the application' },
  {
    tool: 'navigate_to',
    displayName: 'GAI: Navigate To',
    userDescription: "Goes to a screen of an app through GAI's navigation memory: replays a learned path, or learns it (asks first).",
    icon: '$(compass)',
    progress: 'Navigating',
  },
  {
    tool: 'run_routine',
    displayName: 'GAI: Run Routine',
    userDescription: 'Runs a task you recorded with GAI: Record Steps, without a model (asks first).',
    icon: '$(run-all)',
    progress: 'Running the routine',
  },
  { tool: 'get_current_node', displayName: 'GAI: Where Am I', userDescription: "Says which known screen of GAI's navigation memory is showing.", icon: '$(location)', progress: 'Recognising the screen' },
];

/** `click` → `gai_click`: the name in `vscode.lm.tools`, in `#` references and in the tool set. */
export function lmToolName(tool: string): string {
  return `gai_${tool}`;
}

/** The spec of a VS Code tool name (`gai_click`), when GAI offers it. */
export function specOfLmTool(name: string): LmToolSpec | undefined {
  return LM_TOOLS.find((spec) => lmToolName(spec.tool) === name);
}

/** What package.json needs of a GAI tool: its definition and risk. */
export interface ToolFacts {
  name: string;
  description: string;
  inputSchema: JsonObjectSchema;
  risk: RiskLevel;
}

/** One `contributes.languageModelTools` entry. */
export interface LmToolContribution {
  name: string;
  toolReferenceName: string;
  displayName: string;
  userDescription: string;
  modelDescription: string;
  icon: string;
  canBeReferencedInPrompt: true;
  tags: string[];
  inputSchema: JsonObjectSchema;
}

export function lmToolContribution(spec: LmToolSpec, facts: ToolFacts): LmToolContribution {
  const name = lmToolName(spec.tool);
  const asks = facts.risk === 'read' ? '' : ' The person confirms each call in VS Code first; GAI\'s tool profile and app permissions still apply (a refusal comes back as the result, saying why).';
  return {
    name,
    toolReferenceName: name,
    displayName: spec.displayName,
    userDescription: spec.userDescription,
    modelDescription: `${facts.description}${spec.modelNote ? ` ${spec.modelNote}` : ''}${asks}`,
    icon: spec.icon,
    canBeReferencedInPrompt: true,
    // `read` / `action` / `system` let a caller pick the harmless ones.
    tags: [GAI_TAG, 'desktop', facts.risk],
    inputSchema: facts.inputSchema,
  };
}

/**
 * The entries package.json must hold, from the registry's tools (every spec must name one).
 * Throws naming the missing tool: a renamed tool must not silently vanish from VS Code.
 * No tool set: `languageModelToolSets` needs the proposed API `contribLanguageModelToolSets`,
 * and the Marketplace and Open VSX refuse an extension that enables a proposed API.
 */
export function lmToolsManifest(tools: readonly ToolFacts[]): { languageModelTools: LmToolContribution[] } {
  const languageModelTools = LM_TOOLS.map((spec) => {
    const facts = tools.find((tool) => tool.name === spec.tool);
    if (!facts) throw new Error(`lmToolsCatalog: GAI has no tool named "${spec.tool}" (tools: ${tools.map((t) => t.name).join(', ')})`);
    return lmToolContribution(spec, facts);
  });
  return { languageModelTools };
}
