import { z } from 'zod';
import { ACCESS, DRAG_DISTANCES, TARGETS, type SiteDetails } from './questions';
import { NOT_SURE } from './site-assumptions';

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

const notSure = z.literal(NOT_SURE);
/**
 * The site answers as a request sends them: each may also be "not_sure", which is the same as
 * leaving it out (docs/analysis.md, Not sure and unanswered): priced on the cautious side and
 * listed under what was assumed. The answers kept are the ones given.
 */
export const siteDetailsInputSchema = z
  .object({
    targets: z.union([targetsSchema, notSure]).optional(),
    powerLines: z.union([z.boolean(), notSure]).optional(),
    access: z.union([accessSchema, notSure]).optional(),
    dragDistance: z.union([dragDistanceSchema, notSure]).optional(),
    stumpGrinding: z.union([z.boolean(), notSure]).optional(),
    wasteRemoval: z.union([z.boolean(), notSure]).optional(),
  })
  .transform((answers): SiteDetails => Object.fromEntries(Object.entries(answers).filter(([, value]) => value !== NOT_SURE && value !== undefined)));
export { ACCESS_LABELS, DRAG_LABELS, TARGET_LABELS, type Access, type DragDistance, type SiteDetails, type Targets } from './questions';
