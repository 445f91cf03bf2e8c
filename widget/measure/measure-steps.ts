import {
  formatDiameter,
  formatHeight,
  MEASURE_LINE_ORDER,
  MEASURE_LINES,
  measuredSizes,
  type LinePoints,
  type MeasureDraft,
  type MeasureLine,
  type ReferenceKey,
} from '../../core/measure-draft';
import type { PhotoPoint } from '../../core/photo-measure';
import type { UnitSystem } from '../../core/units';

/**
 * The measuring panel's steps, in a homeowner's words: six taps in order (the reference's
 * two ends, the tree's top and base, the trunk's two edges), with the tree's height
 * skippable when its top is not in the photo. Pure, so it is tested without a browser.
 */
export type PointName = keyof LinePoints;

export interface MeasureStep {
  line: MeasureLine;
  point: PointName;
  /** 1 to 6, in the order asked for. */
  number: number;
}

export const STEP_COUNT = MEASURE_LINE_ORDER.reduce((n, line) => n + MEASURE_LINES[line].points.length, 0);

/** Every tap, in the order asked for. */
const ALL_STEPS: MeasureStep[] = MEASURE_LINE_ORDER.flatMap((line) => MEASURE_LINES[line].points.map((point) => ({ line, point })))
  .map((step, index) => ({ ...step, number: index + 1 }));

/** The first tap still wanted, or undefined once every wanted point is placed. */
export function currentStep(draft: MeasureDraft, heightSkipped: boolean): MeasureStep | undefined {
  return ALL_STEPS.find((s) => !(heightSkipped && s.line === 'height') && !draft.points[s.line][s.point]);
}

/** What to tap, naming the reference chosen. */
export function stepInstruction(step: MeasureStep, reference: ReferenceKey): string {
  if (step.line === 'reference') {
    const ends: Record<ReferenceKey, [string, string]> = {
      door: ['Tap the top of the door.', 'Tap the bottom of the door, where it meets the floor.'],
      person: ["Tap the top of the person's head.", "Tap the person's feet."],
      eaves: ['Tap the eaves, where the roof meets the wall.', 'Tap the ground straight below the eaves.'],
      typed: ['Tap the top of the thing you chose.', 'Tap the bottom of the thing you chose.'],
    };
    return ends[reference][step.point === 'top' ? 0 : 1];
  }
  if (step.line === 'height') {
    return step.point === 'top' ? 'Tap the very top of the tree.' : 'Tap the bottom of the trunk, where it meets the ground.';
  }
  return step.point === 'left'
    ? 'Tap the left edge of the trunk, 1.5 m above the ground.'
    : 'Tap the right edge of the trunk, at the same height.';
}

export const DONE_TEXT = 'All done. Check the sizes below, then choose Use these sizes.';

/** "Step 3 of 6: Tap the very top of the tree.", or the done text. */
export function stepText(draft: MeasureDraft, heightSkipped: boolean): string {
  const step = currentStep(draft, heightSkipped);
  return step ? `Step ${step.number} of ${STEP_COUNT}: ${stepInstruction(step, draft.reference)}` : DONE_TEXT;
}

export interface ScreenRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The photo pixel under a point on screen, kept inside the photo: a finger's centre on the
 * photo's outermost row, or up to `slop` px past it (the dark margin round the photo), is a
 * point on that edge, never "no point". Null further out, or while the photo has no size.
 */
export function photoPointAt(rect: ScreenRect, clientX: number, clientY: number, imageWidth: number, imageHeight: number, slop = 1): PhotoPoint | null {
  if (!(rect.width > 0 && rect.height > 0 && imageWidth > 0 && imageHeight > 0)) return null;
  if (!Number.isFinite(clientX) || !Number.isFinite(clientY)) return null;
  const past = (at: number, start: number, size: number) => Math.max(start - at, at - (start + size), 0);
  if (past(clientX, rect.left, rect.width) > slop || past(clientY, rect.top, rect.height) > slop) return null;
  const within = (n: number) => Math.min(Math.max(n, 0), 1);
  return { x: within((clientX - rect.left) / rect.width) * imageWidth, y: within((clientY - rect.top) / rect.height) * imageHeight };
}

/** The draft with one point placed (rounded and kept inside the photo). */
export function withPoint(draft: MeasureDraft, step: MeasureStep, at: PhotoPoint): MeasureDraft {
  const x = Math.round(Math.min(Math.max(at.x, 0), draft.imageWidth));
  const y = Math.round(Math.min(Math.max(at.y, 0), draft.imageHeight));
  return { ...draft, points: { ...draft.points, [step.line]: { ...draft.points[step.line], [step.point]: { x, y } } } };
}

export interface MeasureProgress {
  draft: MeasureDraft;
  heightSkipped: boolean;
}

/**
 * Takes back the last tap: the latest point placed, in the order asked for. Skipping the
 * height counts as a step of its own, so with no trunk point yet it brings the height back.
 */
export function undoLastTap({ draft, heightSkipped }: MeasureProgress): MeasureProgress {
  const placed = ALL_STEPS.filter((s) => draft.points[s.line][s.point]);
  const last = placed[placed.length - 1];
  if (heightSkipped && (!last || last.line !== 'trunk')) return { draft, heightSkipped: false };
  if (!last) return { draft, heightSkipped };
  const points = { ...draft.points[last.line] };
  delete points[last.point];
  return { draft: { ...draft, points: { ...draft.points, [last.line]: points } }, heightSkipped };
}

export const anyTap = (draft: MeasureDraft) => ALL_STEPS.some((s) => draft.points[s.line][s.point]);

export interface MeasuredText {
  height: string;
  trunk: string;
  /** Why the taps cannot be measured, in the visitor's words. */
  problem?: string;
  /** Whether there is a size to use. */
  usable: boolean;
}

/** "About 6.1 m (20 ft) tall", "About 50 cm (20 in) across" (feet and inches first for an imperial business), or where each one stands. */
export function measuredText(draft: MeasureDraft, heightSkipped: boolean, units: UnitSystem = 'metric'): MeasuredText {
  const sizes = measuredSizes(draft);
  const known = sizes && 'heightM' in sizes ? sizes : { heightM: null, diameterM: null };
  const height =
    known.heightM !== null ? `About ${formatHeight(known.heightM, units)} tall` : heightSkipped ? 'Skipped' : 'Not measured yet';
  const trunk = known.diameterM !== null ? `About ${formatDiameter(known.diameterM, units)} across` : 'Not measured yet';
  return {
    height,
    trunk,
    problem: sizes && 'problem' in sizes ? sizes.problem : undefined,
    usable: known.heightM !== null || known.diameterM !== null,
  };
}
