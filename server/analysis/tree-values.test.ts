import { describe, expect, it } from 'vitest';
import { readUserTreeDetails, type UserTreeSizes } from '../../core/normalise';
import type { TreeDetails } from '../../core/tree-details';
import { NEEDS_DETAILS_MESSAGE, NOT_A_TREE_MESSAGE } from '../../core/tree-details';
import { decideAbstention } from './abstain';
import { parseDescription } from './description-parser';
import { resolveTreeValues } from './tree-values';
import type { PhotoChecks } from '../images/normalise';
import type { Perception } from './types';
import { localConfidence } from './vision-local';

const model = (overrides: Partial<Perception> = {}): Perception => ({
  readFrom: 'model',
  isTree: true,
  species: 'Oak',
  dbhIn: 18,
  heightFt: 45,
  crownSpreadFt: 30,
  site: {},
  times: null,
  factors: [],
  safetyWarnings: [],
  confidence: 0.7,
  ...overrides,
});
const local = (): Perception => model({ readFrom: 'description', isTree: null, species: null, dbhIn: null, heightFt: null, crownSpreadFt: null, confidence: 0.1 });

function user(details: TreeDetails): UserTreeSizes {
  const read = readUserTreeDetails(details);
  if (!read.ok) throw new Error(read.problems.join('; '));
  return read.sizes;
}

const treePhoto: PhotoChecks = { width: 1000, height: 800, brightness: 120, sharpness: 100, vegetationShare: 0.7, issues: [] };
const bluePhoto: PhotoChecks = { ...treePhoto, vegetationShare: 0, issues: ['Little vegetation in frame: is this a tree? Make sure the whole tree is in the photo'] };

describe('resolveTreeValues: precedence', () => {
  it('typed > measured > band > model > description, each field on its own', () => {
    const described = parseDescription('birch, 10 inch trunk, 25 ft');
    expect(resolveTreeValues(null, model(), described)).toMatchObject({ heightFt: 45, dbhIn: 18, sources: { species: 'model', height: 'model', diameter: 'model' } });
    expect(resolveTreeValues(null, local(), described)).toMatchObject({ heightFt: 25, dbhIn: 10, sources: { species: 'description', height: 'description', diameter: 'description' } });
    const banded = user({ height: { band: 'about_two_storey' } });
    expect(resolveTreeValues(banded, model(), described)).toMatchObject({ heightFt: 20, dbhIn: 18, sources: { height: 'band', diameter: 'model' } });
    const typed = user({ species: 'Yew', height: { value: 9, unit: 'm' }, diameter: { value: 30, unit: 'cm' } });
    const values = resolveTreeValues(typed, model(), described);
    expect(values).toMatchObject({ heightFt: 30, dbhIn: 12, sources: { species: 'user', height: 'user', diameter: 'user' } });
    expect(values.species).toMatchObject({ name: 'Yew', kind: 'conifer' });
    expect(values.factors).toEqual([
      'Height 30 ft as you entered it; the AI model read 45 ft from the photo',
      'Trunk diameter 12 in as you entered it; the AI model read 18 in from the photo',
      'Species Yew as you chose it; the AI model thought Oak',
    ]);
  });

  it('leaves unknowns null and their source assumed', () => {
    expect(resolveTreeValues(null, local(), parseDescription('a tree'))).toMatchObject({
      heightFt: null,
      dbhIn: null,
      species: { name: null },
      sources: { species: null, height: 'assumed', diameter: 'assumed' },
    });
  });
});

describe('decideAbstention', () => {
  const values = (perception: Perception, text = '') => resolveTreeValues(null, perception, parseDescription(text));

  it('quotes a tree photo with a size from anywhere', () => {
    expect(decideAbstention(values(model()), model(), treePhoto)).toBeNull();
    expect(decideAbstention(values(local(), 'oak 40 ft'), local(), treePhoto)).toBeNull();
  });

  it('asks for sizes when nobody gave one', () => {
    expect(decideAbstention(values(local()), local(), treePhoto)).toEqual({
      outcome: 'needs_details',
      message: NEEDS_DETAILS_MESSAGE,
      missing: ['height', 'diameter'],
      reasons: ['No height or trunk size was given. Without an AI vision model, sizes come from your details, not the photo'],
    });
  });

  it('asks for a tree photo when the pixels or the model say it is not one, unless a model sees a tree', () => {
    expect(decideAbstention(values(local(), 'oak 40 ft'), local(), bluePhoto)).toMatchObject({ message: NOT_A_TREE_MESSAGE, missing: ['tree_photo'] });
    expect(decideAbstention(values(model()), model({ isTree: false }), treePhoto)).toMatchObject({
      message: NOT_A_TREE_MESSAGE,
      missing: ['tree_photo'],
      reasons: ['The AI model did not see a tree in this photo'],
    });
    expect(decideAbstention(values(model()), model(), bluePhoto)).toBeNull();
  });
});

describe('localConfidence', () => {
  const none = parseDescription(undefined);
  const all = { targets: 'nothing', powerLines: false, access: 'open', dragDistance: 'short', stumpGrinding: false, wasteRemoval: true } as const;

  it('grows with what was given and tops out at 0.5', () => {
    const full = user({ species: 'Oak', height: { value: 40, unit: 'ft' }, diameter: { value: 16, unit: 'in' } });
    expect(localConfidence(full, none, all, 0)).toBe(0.5);
    expect(localConfidence(full, none, { targets: 'nothing', access: 'open', powerLines: false }, 0)).toBe(0.45);
    expect(localConfidence(full, none, {}, 0)).toBe(0.4);
    expect(localConfidence(user({ height: { value: 40, unit: 'ft' } }), none, {}, 0)).toBe(0.2);
    expect(localConfidence(user({ height: { band: 'much_taller' } }), none, {}, 0)).toBe(0.15);
    expect(localConfidence(null, parseDescription('oak, 16 inch trunk, 40 ft, open lawn, side gate'), {}, 0)).toBe(0.43);
  });

  it('counts a kind without a species, or an unlisted name, as half a species', () => {
    expect(localConfidence(user({ species: 'conifer', height: { value: 40, unit: 'ft' } }), none, {}, 0)).toBe(0.25);
    expect(localConfidence(user({ species: 'Kowhai', height: { value: 40, unit: 'ft' } }), none, {}, 0)).toBe(0.25);
  });

  it('loses 0.05 for each photo problem, never below 0.05', () => {
    const full = user({ species: 'Oak', height: { value: 40, unit: 'ft' }, diameter: { value: 16, unit: 'in' } });
    expect(localConfidence(full, none, all, 2)).toBe(0.4);
    expect(localConfidence(null, none, {}, 9)).toBe(0.05);
  });
});
