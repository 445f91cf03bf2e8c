import { z } from 'zod';

/**
 * The site questions (DECISIONS, Analysis): what the photo cannot show, and what
 * decides the price more than size does. All optional; unanswered means unknown.
 */
export const targetsSchema = z.enum(['nothing', 'fence_shed', 'building', 'road']);
export const accessSchema = z.enum(['open', 'side_gate', 'through_house']);
export const dragDistanceSchema = z.enum(['short', 'medium', 'long']);

export const siteDetailsSchema = z.object({
  /** What is within falling distance of the tree. */
  targets: targetsSchema.optional(),
  powerLines: z.boolean().optional(),
  access: accessSchema.optional(),
  /** How far brush must be dragged to the chipper: short < 10 m, medium 10-30 m, long > 30 m. */
  dragDistance: dragDistanceSchema.optional(),
  stumpGrinding: z.boolean().optional(),
  wasteRemoval: z.boolean().optional(),
});
export type SiteDetails = z.infer<typeof siteDetailsSchema>;
export type Targets = z.infer<typeof targetsSchema>;
export type Access = z.infer<typeof accessSchema>;
export type DragDistance = z.infer<typeof dragDistanceSchema>;

/** Labels for the dashboard's site questions and the report. */
export const TARGET_LABELS: Record<Targets, string> = {
  nothing: 'Nothing',
  fence_shed: 'Fence or shed',
  building: 'Building',
  road: 'Road or footpath',
};
export const ACCESS_LABELS: Record<Access, string> = {
  open: 'Open (vehicle can reach)',
  side_gate: 'Side gate only',
  through_house: 'Through the house',
};
export const DRAG_LABELS: Record<DragDistance, string> = {
  short: 'Under 10 m',
  medium: '10 to 30 m',
  long: 'Over 30 m',
};
