import type { TimeRange } from './time-model';

/*
 * From the crew's minutes on site to each tree's actual times (docs/product.md, The crew's day,
 * Timers and the finish). The units stay those of the estimate: the time model's cutting, prep
 * and cleanup are crew minutes on site (wall-clock minutes the crew spends on the tree, whatever
 * its size; docs/analysis.md, The time model), and the timer measures wall-clock minutes on
 * site. So the timer's minutes are split as they are, never multiplied by the people on site.
 *
 * The split follows the estimate: each tree gets its share of the estimates' midpoints, and within
 * a tree cutting, prep and cleanup get their shares of that tree's midpoints. Whole minutes, by the
 * largest remainder, so the parts add up to exactly the minutes split.
 */

export interface TreeEstimate {
  itemId: number;
  cutting: TimeRange;
  prep: TimeRange;
  cleanup: TimeRange;
}

export interface TreeActuals {
  itemId: number;
  cuttingTime: number;
  prepTime: number;
  cleanupTime: number;
}

const PARTS = ['cutting', 'prep', 'cleanup'] as const;

const midpoint = (range: TimeRange) => (range.min + range.max) / 2;

/** `total` whole minutes in proportion to `weights` (equal when they are all 0), adding up to `total`. */
export function splitWhole(total: number, weights: readonly number[]): number[] {
  if (weights.length === 0) return [];
  const sum = weights.reduce((a, b) => a + Math.max(0, b), 0);
  const shares = weights.map((w) => (sum > 0 ? (Math.max(0, w) / sum) * total : total / weights.length));
  const whole = shares.map(Math.floor);
  let left = total - whole.reduce((a, b) => a + b, 0);
  // The largest remainders take the minutes left, the first of equals first.
  const order = shares.map((s, i) => ({ i, r: s - Math.floor(s) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    whole[i]! += 1;
    left -= 1;
  }
  return whole;
}

/** One tree's minutes across cutting, prep and cleanup by its estimate's parts. */
export function splitTree(tree: TreeEstimate, minutes: number): TreeActuals {
  const [cuttingTime, prepTime, cleanupTime] = splitWhole(minutes, PARTS.map((part) => midpoint(tree[part]))) as [number, number, number];
  return { itemId: tree.itemId, cuttingTime, prepTime, cleanupTime };
}

/**
 * The trees' actual times from the crew's minutes on site: split by the estimate's shares, or,
 * when `perTree` gives a tree's minutes, those minutes split across its parts (a tree not given
 * is then left without times).
 */
export function actualsFromMinutes(trees: readonly TreeEstimate[], minutesOnSite: number, perTree?: ReadonlyMap<number, number>): TreeActuals[] {
  if (perTree) return trees.filter((t) => perTree.has(t.itemId)).map((t) => splitTree(t, perTree.get(t.itemId)!));
  const totals = splitWhole(
    minutesOnSite,
    trees.map((t) => PARTS.reduce((sum, part) => sum + midpoint(t[part]), 0)),
  );
  return trees.map((t, i) => splitTree(t, totals[i]!));
}
