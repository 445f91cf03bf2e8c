import type { Analysis } from '../../core/analysis';
import { describeMethod } from '../../core/quote';
import { heightText } from '../../core/units';

/**
 * A tree's line on the customer's quote, in plain words: what will be done to which tree, and
 * how (core/quote.ts describeMethod). The surgeon can rewrite it. Never the estimator's working
 * (confidence, density, crew notes), and never "Unknown": an unnamed tree is "the tree".
 */
export function treeWork(analysis: Pick<Analysis, 'species' | 'height' | 'method' | 'units' | 'enteredSizes'>): string {
  const tree = analysis.species ? `the ${analysis.species}` : 'the tree';
  const height = analysis.height ? ` (about ${heightText(analysis.height, analysis.units ?? 'metric', analysis.enteredSizes?.height)} tall)` : '';
  const method = describeMethod(analysis.method);
  return `Remove ${tree}${height}.${method ? ` ${method.sentence}` : ''}`;
}
