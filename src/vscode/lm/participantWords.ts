// What the @gai participant shows while a tool runs: "Clicking 7 in galculator…". Pure, no vscode.
import { describeAction } from '../../tools/actionDescription';

/** Read tools in words; action tools are worded by describeAction (the approval cards' sentences). */
const READING: Record<string, string> = {
  screen_capture: 'Taking a screenshot',
  zoom: 'Zooming in on the screen',
  ocr: 'Reading the screen text',
  get_element_tree: 'Reading the accessibility tree',
  smart_screen_reader: 'Reading the screen',
  get_current_node: 'Finding this screen in the navigation brain',
  echo: 'Echoing',
};

const GERUNDS: Record<string, string> = {
  Click: 'Clicking',
  'Right-click': 'Right-clicking',
  'Middle-click': 'Middle-clicking',
  'Double-click': 'Double-clicking',
  'Triple-click': 'Triple-clicking',
  Type: 'Typing',
  Press: 'Pressing',
  Scroll: 'Scrolling',
  Drag: 'Dragging',
  Launch: 'Launching',
  Go: 'Going',
  Run: 'Running',
  Move: 'Moving',
  Wait: 'Waiting',
};

/** The progress line for a call, plain text (progress is not Markdown), ending in an ellipsis. */
export function progressText(call: { name: string; input: unknown }, windowTitle?: string): string {
  const reading = READING[call.name];
  if (reading) return `${reading}…`;
  const sentence = plainText(describeAction(call, windowTitle ? { windowTitle } : {}).text);
  const space = sentence.indexOf(' ');
  const verb = space === -1 ? sentence : sentence.slice(0, space);
  const gerund = GERUNDS[verb];
  return `${gerund ? gerund + sentence.slice(verb.length) : sentence}…`;
}

/** Markdown emphasis and escapes dropped: describeAction escapes what came from the screen or the model. */
export function plainText(markdown: string): string {
  return markdown.replace(/\\(.)|[*`]/g, (_mark, escaped: string | undefined) => escaped ?? '');
}
