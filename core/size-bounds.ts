import { convertLength } from './units';

/**
 * What a tree a contractor quotes for can measure: the one set of bounds for every size, typed,
 * chosen, measured on the photo, read from the project details or by a model, and stored.
 * The tallest trees in Britain and Ireland are about 66 m (a Douglas fir) and the stoutest
 * single trunks about 4-5 m across (ancient oaks, sweet chestnuts, yews; the Tree Register,
 * see core/species-limits.ts); the bounds sit a little above, so no real tree is refused.
 * Below 1 in or 3 ft it is a shrub, not a tree job. Outside them a typed size is refused with
 * the bounds in words, and a model's or the description's reading is ignored with a factor
 * saying so (core/normalise.ts). Zod-free: the estimator's measuring chunk reads it.
 */
export const SIZE_LIMITS = {
  dbhIn: { min: 1, max: 180, label: 'trunk diameter', unit: 'in' },
  heightFt: { min: 3, max: 230, label: 'height', unit: 'ft' },
  crownSpreadFt: { min: 1, max: 200, label: 'crown spread', unit: 'ft' },
} as const;
export type SizeField = keyof typeof SIZE_LIMITS;

/**
 * The largest size a user may type, per unit: the bounds above, the metric ones rounded down
 * (70 m, 450 cm) so that any size typed in metres or centimetres is inside them in feet and inches.
 */
export const MAX_TYPED_SIZE = {
  ft: SIZE_LIMITS.heightFt.max,
  m: Math.floor(convertLength(SIZE_LIMITS.heightFt.max, 'ft', 'm')),
  in: SIZE_LIMITS.dbhIn.max,
  cm: Math.floor(convertLength(SIZE_LIMITS.dbhIn.max, 'in', 'cm') / 10) * 10,
} as const;
