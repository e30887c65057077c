// What a tool is allowed to change and what a call gives back (seed 002's result shape).
import type { ImageBlock } from '../model/messages';
import type { Point } from '../desktop/ports/inputPort';
import type { WindowInfo } from '../desktop/ports/windowPort';
import type { BBox } from '../common/geometry';

/**
 * How much a tool may change: `read` only observes, `action` acts on the desktop through
 * input devices, `system` starts programs or changes state beyond the windows in front.
 */
export type RiskLevel = 'read' | 'action' | 'system';

export const TOOL_ERROR_CODES = [
  'INVALID_INPUT',
  'NOT_FOUND',
  'TIMEOUT',
  'CANCELLED',
  'DENIED',
  'UNSUPPORTED_PLATFORM',
  'FAILED',
  /** What the tool needs is down for now (an MCP server that died twice); retrying will not help. */
  'UNAVAILABLE',
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

export interface ToolResult<T = unknown> {
  success: boolean;
  data?: T;
  error?: string;
  code?: ToolErrorCode;
  durationMs: number;
  /** One or two sentences for people and the model: what happened, or what did not. */
  observation: string;
  /** Screenshots and other pictures; sent to the model as image blocks. */
  images?: ImageBlock[];
  /** A suggestion for the model when the call failed (from the tool or the replanner). */
  hint?: string;
  /** Ids of the call's `confirm` checks the person confirmed before it ran. */
  confirmed?: string[];
}

/** Where an action will land, found before anyone approves it (tools/actionTarget.ts locates it). */
export interface ActionTarget {
  /** Screen points the pointer input lands on, in order (a drag: every point of it). */
  points: Point[];
  /** The window under each point, same order; undefined: no window there (the desktop). */
  windows: Array<WindowInfo | undefined>;
  /** Set when the action sends keys or text: the window that has the focus (undefined: none). */
  keys?: { focused: WindowInfo | undefined };
  /** The element at the first point, when the tool found one (a label found by its text): its screen box and text. */
  element?: { box: BBox; text: string };
  /** How the tool reaches that element, said in its approval (a click by text): see ActionWay. */
  way?: ActionWay;
}

/**
 * `pointer`: the pointer moves there and clicks; `accessibility`: the element's own accessibility
 * action presses it and the pointer stays where the person left it; `pointer-after-press`: the
 * pointer, because a press through accessibility showed no effect.
 */
export type ActionWay = 'pointer' | 'accessibility' | 'pointer-after-press';
