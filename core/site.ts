import { z } from 'zod';
import { ACCESS, DRAG_DISTANCES, TARGETS, type SiteDetails } from './questions';

/**
 * The site questions (docs/product.md, Analysis): what the photo cannot show, and what decides the
 * price more than size does. All optional; unanswered means unknown. The questions, their
 * options and labels live in core/questions.ts (zod-free, shared with the widget).
 */
export const targetsSchema = z.enum(TARGETS);
export const accessSchema = z.enum(ACCESS);
export const dragDistanceSchema = z.enum(DRAG_DISTANCES);

export const siteDetailsSchema = z.object({
  targets: targetsSchema.optional(),
  powerLines: z.boolean().optional(),
  access: accessSchema.optional(),
  dragDistance: dragDistanceSchema.optional(),
  stumpGrinding: z.boolean().optional(),
  wasteRemoval: z.boolean().optional(),
}) satisfies z.ZodType<SiteDetails>;
export { ACCESS_LABELS, DRAG_LABELS, TARGET_LABELS, type Access, type DragDistance, type SiteDetails, type Targets } from './questions';
