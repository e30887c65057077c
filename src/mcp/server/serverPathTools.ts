import { createHash } from 'node:crypto';
import type { BrainDocument } from '../../navigation/store/brainTypes';

// Each learned path is offered to MCP clients as a tool of its own (`goto_network_settings`), so
// another agent reuses the brain without spending tokens on the screen. Pure: the server turns
// these into tools that call navigate_to.

/**
 * MCP allows 128 characters and model APIs 64 ([a-zA-Z0-9_-]), but clients put their own prefix
 * before a server's tool names (Claude Code: `mcp__gai__`, 10 characters; others `gai_`,
 * `gai__`): 48 leaves them room.
 */
export const MAX_TOOL_NAME_CHARS = 48;
const PREFIX = 'goto_';
/** A name cut short, or shared by two targets, ends in `_` and this many hex digits of its target's hash. */
const HASH_CHARS = 6;

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
  return ascii.replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

/**
 * The tool name of a target: `goto_<slug>`; a slug too long for the name is cut and marked with
 * its target's hash, so two long targets alike at the start stay apart and keep their names.
 * A target with no Latin letters or digits is named by a short hash.
 */
export function pathToolName(target: string): string {
  const slug = targetSlug(target);
  if (slug === '') return `${PREFIX}path_${hashOf(target, 10)}`;
  return PREFIX.length + slug.length <= MAX_TOOL_NAME_CHARS ? PREFIX + slug : hashedName(slug, target);
}

function hashedName(slug: string, target: string): string {
  const room = MAX_TOOL_NAME_CHARS - PREFIX.length - HASH_CHARS - 1;
  let cut = slug.slice(0, room);
  // Cut between words where the cut would split one.
  if (slug.length > room && slug[room] !== '_' && cut.includes('_')) cut = cut.slice(0, cut.lastIndexOf('_'));
  return `${PREFIX}${cut.replace(/_+$/, '')}_${hashOf(target, HASH_CHARS)}`;
}

function hashOf(target: string, chars: number): string {
  return createHash('sha256').update(target).digest('hex').slice(0, chars);
}

/**
 * One tool per target a learned path serves (the first target each path was learned for, else
 * its destination's label), sorted by name. Targets whose names collide ("Network settings",
 * "network-settings") are each marked with their hash, so a name does not depend on which other
 * paths were learned before it; `reserved` names (GAI's own tools) are never taken.
 */
export function pathTools(document: BrainDocument, reserved: ReadonlySet<string> = new Set()): PathTool[] {
  const labels = new Map(document.nodes.map((node) => [node.key, node.label]));
  const targets = new Set<string>();
  for (const path of document.paths) {
    const target = (path.targets[0] ?? labels.get(path.to) ?? '').trim();
    if (target !== '') targets.add(target);
  }
  const named = [...targets].map((target) => ({ target, name: pathToolName(target) }));
  const count = new Map<string, number>();
  for (const { name } of named) count.set(name, (count.get(name) ?? 0) + 1);
  const tools: PathTool[] = [];
  const taken = new Set(reserved);
  for (const { target, name: base } of named) {
    let name = count.get(base)! > 1 || reserved.has(base) ? hashedName(base.slice(PREFIX.length), target) : base;
    // Two targets whose hashes agree too: the rare one gets more of its hash.
    for (let more = HASH_CHARS + 2; taken.has(name) && more <= 16; more += 2) name = `${base.slice(0, MAX_TOOL_NAME_CHARS - more - 1)}_${hashOf(target, more)}`;
    taken.add(name);
    tools.push({ name, target, description: `Replays a learned path to ${target}; no model needed.` });
  }
  return tools.sort((a, b) => a.name.localeCompare(b.name));
}
