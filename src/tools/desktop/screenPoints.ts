import { Type } from '@sinclair/typebox';
import type { ToolResult } from '../toolTypes';
import type { Point } from '../../desktop/ports/inputPort';
import type { ScreenSize } from '../../desktop/ports/screenPort';
import { ToolResults } from '../toolResult';

/** A point in screen pixels, as the desktop tools take it. */
export const ScreenPointSchema = Type.Object(
  { x: Type.Integer({ minimum: 0 }), y: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false, description: 'A point in screen pixels' },
);

/** INVALID_INPUT naming the first named point that is off the screen; undefined when all are on it. */
export function pointsOffScreen(toolName: string, points: Array<[field: string, point: Point]>, size: ScreenSize): ToolResult | undefined {
  for (const [field, p] of points) {
    if (p.x >= size.width || p.y >= size.height) {
      return ToolResults.invalidInput(toolName, [`${field}: (${p.x}, ${p.y}) is outside the ${size.width}x${size.height} screen`]);
    }
  }
  return undefined;
}
