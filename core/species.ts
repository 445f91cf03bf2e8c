/**
 * Species the product recognises by name, with green (fresh-felled) wood density.
 *
 * Green density = basic specific gravity x (1 + green moisture content) x 1000 kg/m3,
 * rounded to the nearest 50, from the USDA Forest Products Laboratory Wood Handbook
 * (FPL-GTR-190, 2010, tables 4-3 and 4-2) and, for European species, the Forestry
 * Commission / TRADA figures for fresh-felled timber. Green mass, not seasoned
 * density, is what a crew lifts, drags and chips.
 */
export interface Species {
  /** Display name. */
  name: string;
  /** Words that name it in a description, lower case; the first match wins. */
  aliases: string[];
  greenDensityKgM3: number;
  kind: 'broadleaf' | 'conifer';
}

export const SPECIES: Species[] = [
  { name: 'Oak', aliases: ['oak', 'quercus'], greenDensityKgM3: 1050, kind: 'broadleaf' },
  { name: 'Ash', aliases: ['ash', 'fraxinus'], greenDensityKgM3: 850, kind: 'broadleaf' },
  { name: 'Beech', aliases: ['beech', 'fagus'], greenDensityKgM3: 1000, kind: 'broadleaf' },
  { name: 'Sycamore', aliases: ['sycamore'], greenDensityKgM3: 900, kind: 'broadleaf' },
  { name: 'Maple', aliases: ['maple', 'acer'], greenDensityKgM3: 900, kind: 'broadleaf' },
  { name: 'Birch', aliases: ['birch', 'betula'], greenDensityKgM3: 950, kind: 'broadleaf' },
  { name: 'Willow', aliases: ['willow', 'salix'], greenDensityKgM3: 900, kind: 'broadleaf' },
  { name: 'Poplar', aliases: ['poplar', 'aspen', 'populus'], greenDensityKgM3: 800, kind: 'broadleaf' },
  { name: 'Horse chestnut', aliases: ['horse chestnut', 'conker', 'aesculus'], greenDensityKgM3: 900, kind: 'broadleaf' },
  { name: 'Sweet chestnut', aliases: ['sweet chestnut', 'chestnut', 'castanea'], greenDensityKgM3: 950, kind: 'broadleaf' },
  { name: 'Lime', aliases: ['lime tree', 'linden', 'tilia', 'basswood', 'lime'], greenDensityKgM3: 750, kind: 'broadleaf' },
  { name: 'Cherry', aliases: ['cherry', 'prunus'], greenDensityKgM3: 900, kind: 'broadleaf' },
  { name: 'Elm', aliases: ['elm', 'ulmus'], greenDensityKgM3: 900, kind: 'broadleaf' },
  { name: 'Walnut', aliases: ['walnut', 'juglans'], greenDensityKgM3: 950, kind: 'broadleaf' },
  { name: 'Apple', aliases: ['apple', 'malus', 'crab apple'], greenDensityKgM3: 950, kind: 'broadleaf' },
  { name: 'Hawthorn', aliases: ['hawthorn', 'crataegus'], greenDensityKgM3: 1000, kind: 'broadleaf' },
  { name: 'Holly', aliases: ['holly', 'ilex'], greenDensityKgM3: 1000, kind: 'broadleaf' },
  { name: 'Rowan', aliases: ['rowan', 'mountain ash', 'sorbus'], greenDensityKgM3: 900, kind: 'broadleaf' },
  { name: 'Hornbeam', aliases: ['hornbeam', 'carpinus'], greenDensityKgM3: 1000, kind: 'broadleaf' },
  { name: 'Plane', aliases: ['plane tree', 'london plane', 'platanus', 'sycamore plane'], greenDensityKgM3: 900, kind: 'broadleaf' },
  { name: 'Redbud', aliases: ['redbud', 'cercis'], greenDensityKgM3: 900, kind: 'broadleaf' },
  { name: 'Magnolia', aliases: ['magnolia'], greenDensityKgM3: 850, kind: 'broadleaf' },
  { name: 'Eucalyptus', aliases: ['eucalyptus', 'gum tree'], greenDensityKgM3: 1100, kind: 'broadleaf' },
  { name: 'Leyland cypress', aliases: ['leylandii', 'leyland', 'cypress', 'conifer hedge'], greenDensityKgM3: 800, kind: 'conifer' },
  { name: 'Pine', aliases: ['pine', 'pinus'], greenDensityKgM3: 850, kind: 'conifer' },
  { name: 'Spruce', aliases: ['spruce', 'picea', 'christmas tree'], greenDensityKgM3: 750, kind: 'conifer' },
  { name: 'Fir', aliases: ['douglas fir', 'fir', 'abies'], greenDensityKgM3: 800, kind: 'conifer' },
  { name: 'Larch', aliases: ['larch', 'larix'], greenDensityKgM3: 900, kind: 'conifer' },
  { name: 'Yew', aliases: ['yew', 'taxus'], greenDensityKgM3: 1000, kind: 'conifer' },
  { name: 'Cedar', aliases: ['cedar', 'cedrus', 'thuja'], greenDensityKgM3: 650, kind: 'conifer' },
  { name: 'Monkey puzzle', aliases: ['monkey puzzle', 'araucaria'], greenDensityKgM3: 850, kind: 'conifer' },
];

/**
 * With no species named, assume a dense broadleaf: it errs toward more mass to clear,
 * so an unnamed tree is never quoted light (DECISIONS: conservative defaults).
 */
export const UNKNOWN_SPECIES_GREEN_DENSITY_KG_M3 = 1000;

export function findSpeciesByName(name: string): Species | undefined {
  const needle = name.trim().toLowerCase();
  return SPECIES.find((s) => s.name.toLowerCase() === needle || s.aliases.includes(needle));
}

/** The wood density text shown on results, e.g. "High (about 1,050 kg/m³ green)". */
export function describeWoodDensity(greenDensityKgM3: number): string {
  const band = greenDensityKgM3 >= 950 ? 'High' : greenDensityKgM3 >= 800 ? 'Medium' : 'Low';
  return `${band} (about ${greenDensityKgM3.toLocaleString('en-GB')} kg/m³ green)`;
}
