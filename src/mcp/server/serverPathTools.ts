import { createHash } from 'node:crypto';
import type { BrainDocument } from '../../navigation/store/brainTypes';

// Each learned path is offered to MCP clients as a tool of its own (`goto_network_settings`), so
// another agent reuses the brain without spending tokens on the screen. Pure: the server turns
// these into tools that call navigate_to.

/** MCP allows 128 characters, but Claude and OpenAI clients take only 64 ([a-zA-Z0-9_-]). */
export const MAX_TOOL_NAME_CHARS = 64;
const PREFIX = 'goto_';

export interface PathTool {
  /** `goto_<slug of target>`. */
  name: string;
  /** What navigate_to is given: the target the path was learned for. */
  target: string;
  description: string;
}

/** `Network settings` → `network_settings`; accents folded, anything else an underscore. */
export function targetSlug(target: string): string {
  const ascii = target.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  const slug = ascii.replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return slug.slice(0, MAX_TOOL_NAME_CHARS - PREFIX.length).replace(/_+$/, '');
}

/** The tool name of a target; a target with no Latin letters or digits is named by a short hash. */
export function pathToolName(target: string): string {
  const slug = targetSlug(target);
  return PREFIX + (slug === '' ? `path_${createHash('sha256').update(target).digest('hex').slice(0, 10)}` : slug);
}

/**
 * One tool per target a learned path serves (the first target each path was learned for, else
 * its destination's label), sorted by name. Names that collide get `_2`, `_3`… in target order;
 * `reserved` names (GAI's own tools) are never reused.
 */
export function pathTools(document: BrainDocument, reserved: ReadonlySet<string> = new Set()): PathTool[] {
  const labels = new Map(document.nodes.map((node) => [node.key, node.label]));
  const targets = new Set<string>();
  for (const path of document.paths) {
    const target = (path.targets[0] ?? labels.get(path.to) ?? '').trim();
    if (target !== '') targets.add(target);
  }
  const taken = new Set(reserved);
  const tools: PathTool[] = [];
  for (const target of [...targets].sort()) {
    const base = pathToolName(target);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_TOOL_NAME_CHARS - String(n).length - 1)}_${n}`;
    taken.add(name);
    tools.push({ name, target, description: `Replays a learned path to ${target}; no model needed.` });
  }
  return tools.sort((a, b) => a.name.localeCompare(b.name));
}
