import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../common/schema';

// The small pieces every stored brain record is made of (brainTypes.ts, routineTypes.ts).

export const ISO_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$';

export const IsoTime = Type.String({ pattern: ISO_TIME_PATTERN, description: 'UTC time, ISO 8601 (toISOString)' });
export const NodeKeyText = Type.String({ minLength: 1, maxLength: 300 });
export const Count = Type.Integer({ minimum: 0 });
export const PointSchema = Type.Object({ x: Type.Number({ minimum: 0 }), y: Type.Number({ minimum: 0 }) }, { additionalProperties: false });

export const ThumbnailSchema = Type.Object(
  {
    mediaType: StringEnum(['image/png', 'image/jpeg', 'image/webp'] as const),
    /** Base64; its size is also bounded by BrainLimits.maxThumbnailBytes. */
    data: Type.String({ maxLength: 400_000 }),
    width: Type.Integer({ minimum: 1, maximum: 4096 }),
    height: Type.Integer({ minimum: 1, maximum: 4096 }),
  },
  { additionalProperties: false },
);
