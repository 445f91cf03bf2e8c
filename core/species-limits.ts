import { MAX_TYPED_SIZE } from './size-bounds';

/**
 * How tall and how stout each listed tree grows, for the size checks (core/plausibility.ts):
 * [height in metres, trunk diameter at chest height in centimetres], keyed by the names of
 * core/species.ts (a test keeps the two lists the same).
 *
 * They are bounds for a warning, not records, set generously so a real tree is not flagged for
 * its species alone. Only a few figures were checked one by one against the Tree Register of
 * Britain and Ireland's published records (a 65.4 m Douglas fir, a 64.3 m grand fir, a 35 m
 * sessile oak 274 cm thick, a horse chestnut of 7.33 m girth, a black walnut of 693 cm girth);
 * the rest are estimates in the range of champion sizes (Owen Johnson, Champion Trees of Britain
 * and Ireland, 2011) and of the Collins Tree Guide's heights, not looked up tree by tree: treat
 * them as assumptions to refine. Trunk diameters are girths divided by pi, rounded up to the next
 * 10 cm. "as X" marks a figure taken from a related tree, as core/species.ts does for densities.
 * Kept apart from core/species.ts so a check of sizes looks a listed name up without loading the
 * name matcher and its aliases.
 */
export type SizeLimit = readonly [heightM: number, dbhCm: number];

export const SPECIES_LIMITS: Readonly<Record<string, SizeLimit>> = {
  // ---- Broadleaves
  Oak: [45, 430],
  'Red oak': [35, 200],
  'Holm oak': [30, 250],
  'Turkey oak': [40, 250],
  Ash: [45, 300],
  Beech: [45, 300],
  Hornbeam: [32, 230],
  Sycamore: [40, 280],
  'Norway maple': [32, 170],
  'Field maple': [27, 220],
  'Japanese maple': [16, 100],
  'Bigleaf maple': [35, 250],
  Maple: [40, 280], // as sycamore, the largest maple grown here
  'Silver birch': [32, 120],
  'Downy birch': [28, 110],
  'Himalayan birch': [25, 100],
  Birch: [32, 120],
  Alder: [32, 170],
  Hazel: [15, 60],
  Hawthorn: [15, 130],
  Blackthorn: [10, 50],
  Holly: [25, 130],
  Rowan: [20, 90],
  Whitebeam: [25, 120],
  'Wild cherry': [32, 200],
  'Bird cherry': [20, 90],
  'Flowering cherry': [15, 100],
  Cherry: [32, 200], // as wild cherry
  'Cherry laurel': [15, 100],
  'Portuguese laurel': [18, 100],
  'Bay laurel': [20, 100],
  Plum: [15, 80],
  Apple: [15, 120],
  'Crab apple': [15, 120],
  Pear: [22, 120],
  'Horse chestnut': [40, 250],
  'Sweet chestnut': [38, 430],
  Lime: [46, 300],
  'Small-leaved lime': [38, 300],
  'Large-leaved lime': [42, 300],
  'London plane': [48, 330],
  'American sycamore': [40, 330], // as London plane
  'English elm': [45, 300],
  'Wych elm': [40, 300],
  'American elm': [40, 300], // as English elm
  Elm: [45, 300],
  Walnut: [30, 220],
  'Black walnut': [35, 230],
  'White willow': [32, 250],
  'Weeping willow': [25, 200],
  'Goat willow': [18, 100],
  Willow: [32, 250],
  'Lombardy poplar': [40, 200],
  'Black poplar': [40, 300],
  'White poplar': [35, 200],
  Aspen: [30, 120],
  Poplar: [45, 300],
  Magnolia: [25, 120],
  Eucalyptus: [50, 250],
  'Tulip tree': [40, 250],
  Sweetgum: [32, 150],
  'False acacia': [30, 180],
  'Honey locust': [25, 120],
  'Indian bean tree': [22, 170],
  'Tree of heaven': [30, 150],
  Mulberry: [15, 150],
  Fig: [15, 100],
  Laburnum: [12, 70],
  Elder: [12, 70],
  Redbud: [12, 60],
  'Judas tree': [15, 80],
  'Strawberry tree': [15, 120],
  Box: [10, 50],
  Ginkgo: [30, 200],

  // ---- Conifers
  'Leyland cypress': [45, 200],
  'Lawson cypress': [45, 200],
  'Monterey cypress': [40, 350],
  Cypress: [45, 350],
  'Western red cedar': [45, 300],
  'Cedar of Lebanon': [40, 400],
  'Atlas cedar': [42, 280],
  Deodar: [42, 280],
  Cedar: [42, 400],
  'Scots pine': [38, 180],
  'Corsican pine': [45, 200],
  'Austrian pine': [40, 200],
  'Monterey pine': [45, 300],
  Pine: [45, 300],
  'Norway spruce': [50, 200],
  'Sitka spruce': [65, 300],
  'Blue spruce': [30, 120],
  Spruce: [65, 300],
  'Douglas fir': [70, 300],
  'Grand fir': [70, 250],
  Fir: [60, 250],
  'Western hemlock': [55, 250],
  'European larch': [45, 200],
  'Japanese larch': [40, 150],
  Larch: [45, 200],
  Yew: [30, 450], // the stoutest ancient yews are wider, but hollow and in several stems
  Juniper: [20, 100],
  'Giant sequoia': [60, 400],
  'Coast redwood': [60, 350],
  'Dawn redwood': [40, 200],
  'Swamp cypress': [40, 200],
  'Monkey puzzle': [35, 150],

  // ---- A kind without a species: the largest of its kind above
  Conifer: [70, 450],
  'Broadleaf tree': [50, 430],
};

/**
 * Any tree in Britain and Ireland, for a name not on the list or none: the tallest is a Douglas
 * fir of about 66 m, the stoutest single trunks (ancient oaks, sweet chestnuts, yews) about 4-5 m
 * across (the Tree Register, above): the largest sizes a user may type (core/size-bounds.ts).
 */
export const ANY_TREE_LIMIT: SizeLimit = [MAX_TYPED_SIZE.m, MAX_TYPED_SIZE.cm];
