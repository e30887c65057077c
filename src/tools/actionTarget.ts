// Where an action will land, found before anyone approves it: the approval and the per-app
// permission name the window the click reaches, not whichever window happens to be active.
import type { Point } from '../desktop/ports/inputPort';
import type { WindowInfo, WindowPort } from '../desktop/ports/windowPort';
import { windowsAtPoints } from '../desktop/input/guardedInput';
import type { AnyTool, ToolContext } from './toolBase';
import type { ActionTarget, ActionWay, ToolResult } from './toolTypes';

// Declared with the tool types so that toolBase (which carries it in a call's context) need not import this file.
export type { ActionTarget } from './toolTypes';

/** A located target, or the result to answer with when there is nothing to act on (NOT_FOUND, …). */
export type Located = { target: ActionTarget } | { failure: ToolResult };

/**
 * A tool that can say where it will act before it acts. The runtime locates first, then asks
 * for approval and the guards' permission for that target, then runs the tool with the target
 * in its context (when no one waited in between), so the tool acts where it was approved.
 */
export interface TargetingTool {
  locateTarget(input: unknown, context: ToolContext): Promise<Located | undefined>;
}

export function isTargetingTool(tool: AnyTool): tool is AnyTool & TargetingTool {
  return typeof (tool as Partial<TargetingTool>).locateTarget === 'function';
}

/** The target of pointer input at these points. */
export async function pointerTarget(windows: WindowPort, points: Point[]): Promise<Located> {
  return { target: { points, windows: await windowsAtPoints(windows, points) } };
}

/** The target of keys or text: the focused window. */
export async function keysTarget(windows: WindowPort): Promise<Located> {
  return { target: { points: [], windows: [], keys: { focused: await windows.activeWindow() } } };
}

/** The window an approval names: where the pointer lands first, else the one receiving keys. */
export function targetWindow(target: ActionTarget): { window: WindowInfo | undefined } | undefined {
  if (target.points.length > 0) return { window: target.windows[0] };
  if (target.keys) return { window: target.keys.focused };
  return undefined;
}

/** `in galculator (window "Calculator")`: where the action lands, in one line for a prompt. */
export function whereItLands(target: ActionTarget): string {
  const where = targetWindow(target);
  if (!where) return '';
  if (!where.window) return target.points.length > 0 ? 'on the desktop (no window there)' : '';
  const app = shown(where.window.appName, 80) || 'an application with no name';
  return `in ${app} (window "${shown(where.window.title, 60)}")`;
}

/** How the action reaches its element, in the words every approval uses; '' when the target does not say. */
export function wayItActs(way: ActionWay | undefined): string {
  switch (way) {
    case 'accessibility':
      return 'through accessibility (the pointer stays)';
    case 'pointer':
      return 'with the pointer';
    case 'pointer-after-press':
      return 'with the pointer (pressing it through accessibility changed nothing)';
    default:
      return '';
  }
}

/** Control and direction characters out, bounded: a window names itself. */
function shown(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
