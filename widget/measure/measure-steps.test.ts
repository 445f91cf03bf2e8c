import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EMPTY_MEASURE, type MeasureDraft } from '../../core/measure-draft';
import { currentStep, DONE_TEXT, measuredText, photoPointAt, stepText, undoLastTap, withPoint, type MeasureProgress } from './measure-steps';

/** A 1200 x 1600 photo at 100 px a metre: a door (2 m), a 12 m tree with a 0.5 m trunk. */
const PHOTO: MeasureDraft = { ...EMPTY_MEASURE, imageWidth: 1200, imageHeight: 1600 };
const TAPS = [
  { x: 200, y: 1300 },
  { x: 200, y: 1500 },
  { x: 700, y: 300 },
  { x: 700, y: 1500 },
  { x: 675, y: 1370 },
  { x: 725, y: 1370 },
];

/** Taps the points in the order the panel asks for them. */
function tapAll(draft: MeasureDraft, taps: { x: number; y: number }[], heightSkipped = false): MeasureDraft {
  return taps.reduce((d, at) => {
    const step = currentStep(d, heightSkipped);
    if (!step) throw new Error('no step left to tap');
    return withPoint(d, step, at);
  }, draft);
}

describe('the measuring steps', () => {
  it('asks for six taps in order, in the words of the reference chosen', () => {
    const seen: string[] = [];
    let draft = PHOTO;
    for (const at of TAPS) {
      seen.push(stepText(draft, false));
      draft = tapAll(draft, [at]);
    }
    expect(seen).toEqual([
      'Step 1 of 6: Tap the top of the door.',
      'Step 2 of 6: Tap the bottom of the door, where it meets the floor.',
      'Step 3 of 6: Tap the very top of the tree.',
      'Step 4 of 6: Tap the bottom of the trunk, where it meets the ground.',
      'Step 5 of 6: Tap the left edge of the trunk, 1.5 m above the ground.',
      'Step 6 of 6: Tap the right edge of the trunk, at the same height.',
    ]);
    expect(stepText(draft, false)).toBe(DONE_TEXT);
    expect(stepText({ ...PHOTO, reference: 'person' }, false)).toBe("Step 1 of 6: Tap the top of the person's head.");
    expect(stepText({ ...PHOTO, reference: 'eaves' }, false)).toBe('Step 1 of 6: Tap the eaves, where the roof meets the wall.');
  });

  it('keeps points inside the photo, in whole pixels', () => {
    const step = currentStep(PHOTO, false)!;
    expect(withPoint(PHOTO, step, { x: -5, y: 1700.4 }).points.reference.top).toEqual({ x: 0, y: 1600 });
    expect(withPoint(PHOTO, step, { x: 10.6, y: 20.2 }).points.reference.top).toEqual({ x: 11, y: 20 });
  });

  it('shows the sizes as they become known, and allows using them once one is', () => {
    expect(measuredText(tapAll(PHOTO, TAPS.slice(0, 2)), false)).toEqual({ height: 'Not measured yet', trunk: 'Not measured yet', problem: undefined, usable: false });
    expect(measuredText(tapAll(PHOTO, TAPS.slice(0, 4)), false)).toMatchObject({ height: 'About 12.0 m (39 ft) tall', trunk: 'Not measured yet', usable: true });
    expect(measuredText(tapAll(PHOTO, TAPS), false)).toMatchObject({ height: 'About 12.0 m (39 ft) tall', trunk: 'About 50 cm (20 in) across', usable: true });
  });

  it('says plainly when the reference is too small to measure by', () => {
    const tiny = tapAll(PHOTO, [{ x: 200, y: 1490 }, { x: 200, y: 1500 }, ...TAPS.slice(2, 4)]);
    const text = measuredText(tiny, false);
    expect(text.problem).toMatch(/^The reference is too small on the photo/);
    expect(text.usable).toBe(false);
  });

  it('skips the height when the top of the tree is not in the photo', () => {
    const draft = tapAll(PHOTO, [TAPS[0]!, TAPS[1]!, TAPS[4]!, TAPS[5]!], true);
    expect(draft.points.height).toEqual({});
    expect(currentStep(tapAll(PHOTO, TAPS.slice(0, 2)), true)).toMatchObject({ line: 'trunk', point: 'left', number: 5 });
    expect(measuredText(draft, true)).toMatchObject({ height: 'Skipped', trunk: 'About 50 cm (20 in) across', usable: true });
    // An imperial business's visitor reads feet and inches first.
    expect(measuredText(tapAll(PHOTO, TAPS), false, 'imperial')).toMatchObject({ height: 'About 39 ft (12.0 m) tall', trunk: 'About 20 in (50 cm) across' });
  });
});

describe('a tap on the photo\'s edge', () => {
  /** The photo drawn 300 x 400 CSS px, 100 px down the screen. */
  const RECT = { left: 30, top: 100, width: 300, height: 400 };

  it('is a point on that edge, at 0 and at the full size, kept inside the photo', () => {
    expect(photoPointAt(RECT, 30, 100, 1200, 1600)).toEqual({ x: 0, y: 0 });
    expect(photoPointAt(RECT, 330, 500, 1200, 1600)).toEqual({ x: 1200, y: 1600 });
    // A finger's centre a fraction of a pixel outside the photo, as touch screens report it.
    expect(photoPointAt(RECT, 180, 99.6, 1200, 1600)).toEqual({ x: 600, y: 0 });
    expect(photoPointAt(RECT, 330.4, 500.5, 1200, 1600)).toEqual({ x: 1200, y: 1600 });
    expect(photoPointAt(RECT, 29, 120, 1200, 1600)).toEqual({ x: 0, y: 80 });
    // The margin round the photo counts as its edge, as far as the panel allows.
    expect(photoPointAt(RECT, 180, 90, 1200, 1600, 12)).toEqual({ x: 600, y: 0 });
    expect(photoPointAt(RECT, 180, 87, 1200, 1600, 12)).toBeNull();
  });

  it('has no point only while the photo has no size', () => {
    expect(photoPointAt({ ...RECT, width: 0 }, 30, 100, 1200, 1600)).toBeNull();
    expect(photoPointAt(RECT, 30, 100, 0, 0)).toBeNull();
    expect(photoPointAt(RECT, Number.NaN, 100, 1200, 1600)).toBeNull();
  });

  it('never clears the points already placed: six taps on the edges give six points and the sizes', () => {
    const edges = [
      photoPointAt(RECT, 80, 450, 1200, 1600)!, // the door's top
      photoPointAt(RECT, 80, 500, 1200, 1600)!, // its bottom, on the bottom edge
      photoPointAt(RECT, 205, 99.5, 1200, 1600)!, // the tree's top, on the top edge
      photoPointAt(RECT, 205, 500.5, 1200, 1600)!, // its base, on the bottom edge
      photoPointAt(RECT, 198.75, 467.5, 1200, 1600)!,
      photoPointAt(RECT, 211.25, 467.5, 1200, 1600)!,
    ];
    let draft = PHOTO;
    for (const [index, at] of edges.entries()) {
      draft = tapAll(draft, [at]);
      const placed = Object.values(draft.points).reduce((n, line) => n + Object.keys(line).length, 0);
      expect(placed).toBe(index + 1);
    }
    expect(draft.points.height).toEqual({ top: { x: 700, y: 0 }, base: { x: 700, y: 1600 } });
    expect(stepText(draft, false)).toBe(DONE_TEXT);
    expect(measuredText(draft, false)).toMatchObject({ height: 'About 16.0 m (52 ft) tall', usable: true });
  });
});

describe('undoing the last tap', () => {
  it('takes back the points one by one, latest first', () => {
    let progress: MeasureProgress = { draft: tapAll(PHOTO, TAPS), heightSkipped: false };
    const steps: string[] = [];
    for (let i = 0; i < TAPS.length; i++) {
      progress = undoLastTap(progress);
      steps.push(stepText(progress.draft, false).slice(0, 11));
    }
    expect(steps).toEqual(['Step 6 of 6', 'Step 5 of 6', 'Step 4 of 6', 'Step 3 of 6', 'Step 2 of 6', 'Step 1 of 6']);
    expect(undoLastTap(progress)).toEqual(progress);
  });

  it('brings back a skipped height once no trunk point is left', () => {
    const skipped = tapAll(PHOTO, [TAPS[0]!, TAPS[1]!, TAPS[4]!], true);
    const first = undoLastTap({ draft: skipped, heightSkipped: true });
    expect(first.heightSkipped).toBe(true);
    expect(first.draft.points.trunk).toEqual({});
    const second = undoLastTap(first);
    expect(second).toEqual({ draft: first.draft, heightSkipped: false });
    expect(stepText(second.draft, second.heightSkipped)).toBe('Step 3 of 6: Tap the very top of the tree.');
  });
});

describe('the measuring panel chunk', () => {
  /**
   * The panel is loaded on demand beside a first chunk on a size budget: nothing it imports,
   * however indirectly, may bring zod (core/tree-details.ts does).
   */
  it('imports nothing that brings zod', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const files = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (files.has(file)) return;
      files.add(file);
      for (const [, spec = ''] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) {
        if (!spec.startsWith('.')) packages.add(spec);
        else visit([`${resolve(dirname(file), spec)}.ts`, `${resolve(dirname(file), spec)}.tsx`].find(existsSync) ?? spec);
      }
    };
    visit(resolve(here, 'measure-panel.tsx'));
    expect([...files].map((f) => f.slice(resolve(here, '../..').length + 1)).sort()).toEqual([
      'core/measure-colours.ts',
      'core/measure-draft.ts',
      'core/photo-measure.ts',
      'core/plausibility.ts',
      'core/size-bounds.ts',
      'core/species-limits.ts',
      'core/units.ts',
      'widget/components/size-warnings.tsx',
      'widget/frame-height.ts',
      'widget/measure/measure-panel.tsx',
      'widget/measure/measure-steps.ts',
      'widget/measure/show-in-host.ts',
      'widget/show-area-message.ts',
      'widget/ui.ts',
      'widget/units-context.ts',
    ]);
    expect([...packages].sort()).toEqual(['lucide-react', 'react']);
  });
});
