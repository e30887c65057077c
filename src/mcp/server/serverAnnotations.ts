import type { RiskLevel } from '../../tools/toolTypes';

// How a GAI tool looks to an MCP client: the client decides on approvals from these hints, so
// they follow the tool's risk level, never its name.

export interface McpToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  openWorldHint: boolean;
}

/** `read` tools only look; `action` and `system` tools change the desktop (MCP assumes destructive when unsaid). */
export function toolAnnotations(name: string, risk: RiskLevel): McpToolAnnotations {
  const readOnly = risk === 'read';
  return { title: toolTitle(name), readOnlyHint: readOnly, destructiveHint: !readOnly, openWorldHint: true };
}

const ACRONYMS = new Set(['ocr', 'ui', 'url']);

/** `screen_capture` → `Screen capture`, `ocr` → `OCR`. */
export function toolTitle(name: string): string {
  const words = name.split(/[_-]+/).filter((word) => word !== '').map((word) => (ACRONYMS.has(word) ? word.toUpperCase() : word));
  if (words.length === 0) return name;
  const [first = '', ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(' ');
}
