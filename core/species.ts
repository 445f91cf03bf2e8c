/**
 * Trees the product recognises by name, with green (fresh-felled) wood density and kind.
 * One list and one matcher (`matchSpecies`) serve the description parser, a vision model's
 * answer and the dashboard's species picker, so a name means the same tree everywhere.
 *
 * Green density = basic specific gravity x (1 + green moisture content) x 1000 kg/m3, rounded
 * to the nearest 50. Sources, marked on each entry:
 * - WH: USDA Forest Products Laboratory, Wood Handbook (FPL-GTR-190, 2010): specific gravity
 *   green from table 4-3, green moisture content (heartwood and sapwood averaged) from table
 *   4-2, for the species or its closest North American relative named beside it.
 * - FC: Forestry Commission / TRADA figures for fresh-felled timber of the European species.
 * - "as X (assumption)": no published green figure to hand; taken from a related species.
 * Green mass, not seasoned density, is what a crew lifts, drags and chips.
 *
 * `kind` decides the time model's form factor and crown ratio (core/time-model.ts): a conifer
 * is a narrower, more tapered tree than a broadleaf of the same height and trunk.
 */
export type TreeKind = 'broadleaf' | 'conifer';

export interface Species {
  /** Display name, UK usage; also what the picker sends as treeDetails.species. */
  name: string;
  latin: string;
  /** Other names it goes by, lower case and singular: common, regional and Latin. */
  aliases: string[];
  greenDensityKgM3: number;
  kind: TreeKind;
  /** "Conifer" and "Broadleaf tree": a kind without a species; their density is an assumption. */
  generic?: true;
}

const b = (name: string, latin: string, greenDensityKgM3: number, aliases: string[] = []): Species => ({
  name,
  latin,
  aliases,
  greenDensityKgM3,
  kind: 'broadleaf',
});
const c = (name: string, latin: string, greenDensityKgM3: number, aliases: string[] = []): Species => ({
  name,
  latin,
  aliases,
  greenDensityKgM3,
  kind: 'conifer',
});

export const SPECIES: Species[] = [
  // ---- Broadleaves ----------------------------------------------------------------------------
  // FC; English and sessile oak share one figure. WH white oak: 0.60 x 1.71 = 1026.
  b('Oak', 'Quercus robur, Q. petraea', 1050, ['english oak', 'pedunculate oak', 'sessile oak', 'common oak', 'durmast oak', 'native oak', 'quercus robur', 'quercus petraea', 'quercus']),
  b('Red oak', 'Quercus rubra', 1000, ['northern red oak', 'american red oak', 'quercus rubra']), // WH: 0.56 x 1.75
  b('Holm oak', 'Quercus ilex', 1100, ['evergreen oak', 'holly oak', 'quercus ilex']), // as oak, denser evergreen (assumption)
  b('Turkey oak', 'Quercus cerris', 1100, ['quercus cerris']), // as holm oak (assumption)
  b('Ash', 'Fraxinus excelsior', 850, ['common ash', 'european ash', 'fraxinus excelsior', 'fraxinus']), // FC; WH white ash 0.55 x 1.45 = 798
  b('Beech', 'Fagus sylvatica', 1000, ['common beech', 'european beech', 'copper beech', 'purple beech', 'fagus sylvatica', 'fagus']), // FC
  b('Hornbeam', 'Carpinus betulus', 1000, ['carpinus betulus', 'carpinus']), // FC
  b('Sycamore', 'Acer pseudoplatanus', 900, ['acer pseudoplatanus']), // FC
  b('Norway maple', 'Acer platanoides', 900, ['acer platanoides', 'crimson king maple']), // as sycamore (assumption)
  b('Field maple', 'Acer campestre', 900, ['hedge maple', 'acer campestre']), // as sycamore (assumption)
  b('Japanese maple', 'Acer palmatum', 900, ['acer palmatum']), // as sycamore (assumption)
  b('Bigleaf maple', 'Acer macrophyllum', 800, ['big leaf maple', 'oregon maple', 'acer macrophyllum']), // WH: 0.44 x 1.8 (MC as silver maple)
  b('Maple', 'Acer', 900, ['acer', 'silver maple', 'red maple', 'sugar maple']), // WH sugar maple 0.56 x 1.69 = 944, red 0.49 x 1.7 = 833
  b('Silver birch', 'Betula pendula', 950, ['european white birch', 'betula pendula']), // as birch
  b('Downy birch', 'Betula pubescens', 950, ['white birch', 'betula pubescens']), // as birch
  b('Himalayan birch', 'Betula utilis', 950, ['jacquemontii', 'betula utilis', 'white barked birch']), // as birch (assumption)
  b('Birch', 'Betula', 950, ['betula']), // FC; WH yellow birch 0.55 x 1.73 = 951
  b('Alder', 'Alnus glutinosa', 750, ['common alder', 'black alder', 'italian alder', 'alnus glutinosa', 'alnus cordata', 'alnus']), // WH red alder 0.37 x 1.97 = 729
  b('Hazel', 'Corylus avellana', 900, ['cobnut', 'corylus avellana', 'corylus']), // as hornbeam, lighter (assumption)
  b('Hawthorn', 'Crataegus monogyna', 1000, ['may tree', 'whitethorn', 'quickthorn', 'crataegus monogyna', 'crataegus']), // FC
  b('Blackthorn', 'Prunus spinosa', 1000, ['sloe', 'prunus spinosa']), // as hawthorn (assumption)
  b('Holly', 'Ilex aquifolium', 1000, ['english holly', 'ilex aquifolium', 'ilex']), // FC
  b('Rowan', 'Sorbus aucuparia', 900, ['mountain ash', 'sorbus aucuparia']), // FC
  b('Whitebeam', 'Sorbus aria', 900, ['swedish whitebeam', 'sorbus aria', 'sorbus intermedia', 'sorbus']), // as rowan (assumption)
  b('Wild cherry', 'Prunus avium', 900, ['gean', 'mazzard', 'sweet cherry', 'prunus avium']), // FC
  b('Bird cherry', 'Prunus padus', 900, ['prunus padus']), // as wild cherry (assumption)
  b('Flowering cherry', 'Prunus serrulata', 900, ['japanese cherry', 'ornamental cherry', 'kanzan', 'prunus serrulata']), // as wild cherry (assumption)
  b('Cherry', 'Prunus', 900, ['prunus']), // FC; WH black cherry 0.47 x 1.58 = 743
  b('Cherry laurel', 'Prunus laurocerasus', 900, ['laurel', 'common laurel', 'english laurel', 'prunus laurocerasus']), // as cherry (assumption)
  b('Portuguese laurel', 'Prunus lusitanica', 900, ['prunus lusitanica']), // as cherry (assumption)
  b('Bay laurel', 'Laurus nobilis', 900, ['bay tree', 'sweet bay', 'laurus nobilis']), // as cherry laurel (assumption)
  b('Plum', 'Prunus domestica', 900, ['damson', 'greengage', 'cherry plum', 'prunus domestica', 'prunus cerasifera']), // as cherry (assumption)
  b('Apple', 'Malus domestica', 950, ['apple tree', 'malus domestica']), // FC
  b('Crab apple', 'Malus sylvestris', 950, ['crabapple', 'malus sylvestris', 'malus']), // as apple
  b('Pear', 'Pyrus communis', 950, ['callery pear', 'ornamental pear', 'pyrus communis', 'pyrus calleryana', 'pyrus']), // as apple (assumption)
  b('Horse chestnut', 'Aesculus hippocastanum', 900, ['conker tree', 'conker', 'aesculus hippocastanum', 'aesculus']), // FC
  b('Sweet chestnut', 'Castanea sativa', 950, ['spanish chestnut', 'chestnut', 'castanea sativa', 'castanea']), // FC; WH American chestnut 0.40 x 2.2 = 880
  b('Lime', 'Tilia x europaea', 750, ['common lime', 'lime tree', 'linden', 'tilia europaea', 'tilia']), // FC; WH basswood 0.32 x 2.07 = 662
  b('Small-leaved lime', 'Tilia cordata', 750, ['small leaved lime', 'tilia cordata']), // as lime
  b('Large-leaved lime', 'Tilia platyphyllos', 750, ['large leaved lime', 'tilia platyphyllos']), // as lime
  b('London plane', 'Platanus x hispanica', 900, ['plane', 'plane tree', 'platanus x hispanica', 'platanus x acerifolia', 'platanus']), // FC; WH American sycamore (a plane) 0.46 x 2.22 = 1021
  b('American sycamore', 'Platanus occidentalis', 1000, ['buttonwood', 'platanus occidentalis']), // WH: 0.46 x 2.22
  b('English elm', 'Ulmus procera', 900, ['ulmus procera']), // as elm
  b('Wych elm', 'Ulmus glabra', 900, ['scots elm', 'ulmus glabra']), // as elm
  b('American elm', 'Ulmus americana', 900, ['white elm', 'ulmus americana']), // WH: 0.46 x 1.94 = 890
  b('Elm', 'Ulmus', 900, ['ulmus']), // FC
  b('Walnut', 'Juglans regia', 950, ['common walnut', 'english walnut', 'juglans regia']), // as black walnut
  b('Black walnut', 'Juglans nigra', 950, ['juglans nigra', 'juglans']), // WH: 0.51 x 1.82 = 926
  b('White willow', 'Salix alba', 900, ['cricket bat willow', 'salix alba']), // as willow
  b('Weeping willow', 'Salix babylonica', 900, ['salix babylonica', 'salix x sepulcralis']), // as willow
  b('Goat willow', 'Salix caprea', 900, ['pussy willow', 'sallow', 'salix caprea']), // as willow
  b('Willow', 'Salix', 900, ['crack willow', 'osier', 'salix']), // FC
  b('Lombardy poplar', 'Populus nigra Italica', 800, ['populus nigra italica']), // as poplar
  b('Black poplar', 'Populus nigra', 800, ['populus nigra']), // as poplar
  b('White poplar', 'Populus alba', 800, ['abele', 'populus alba']), // as poplar
  b('Aspen', 'Populus tremula', 700, ['populus tremula']), // WH quaking aspen 0.35 x 2.04 = 714
  b('Poplar', 'Populus', 800, ['hybrid poplar', 'cottonwood', 'populus']), // FC; WH black cottonwood 0.31 x 2.54 = 787
  b('Magnolia', 'Magnolia', 850, ['magnolia grandiflora']), // WH southern magnolia 0.46 x 1.92 = 883
  b('Eucalyptus', 'Eucalyptus', 1100, ['gum tree', 'eucalypt', 'cider gum', 'eucalyptus gunnii']), // FC
  b('Tulip tree', 'Liriodendron tulipifera', 850, ['yellow poplar', 'tulip poplar', 'liriodendron tulipifera', 'liriodendron']), // WH: 0.40 x 2.1 = 840
  b('Sweetgum', 'Liquidambar styraciflua', 950, ['sweet gum', 'liquidambar styraciflua', 'liquidambar']), // WH: 0.46 x 2.08 = 957
  b('False acacia', 'Robinia pseudoacacia', 950, ['black locust', 'robinia pseudoacacia', 'robinia', 'acacia']), // WH SG 0.66; MC 45 % (assumption)
  b('Honey locust', 'Gleditsia triacanthos', 900, ['honeylocust', 'gleditsia triacanthos', 'gleditsia']), // WH SG 0.60; MC 50 % (assumption)
  b('Indian bean tree', 'Catalpa bignonioides', 750, ['catalpa bignonioides', 'catalpa']), // as lime (assumption)
  b('Tree of heaven', 'Ailanthus altissima', 800, ['ailanthus altissima', 'ailanthus']), // as ash, lighter (assumption)
  b('Mulberry', 'Morus nigra', 950, ['black mulberry', 'white mulberry', 'morus nigra', 'morus alba', 'morus']), // as walnut (assumption)
  b('Fig', 'Ficus carica', 750, ['fig tree', 'ficus carica']), // as lime (assumption)
  b('Laburnum', 'Laburnum anagyroides', 950, ['golden chain tree', 'golden rain tree', 'laburnum anagyroides']), // as hawthorn (assumption)
  b('Elder', 'Sambucus nigra', 800, ['elderberry', 'sambucus nigra', 'sambucus']), // as poplar (assumption)
  b('Redbud', 'Cercis canadensis', 900, ['eastern redbud', 'cercis canadensis']), // as cherry (assumption)
  b('Judas tree', 'Cercis siliquastrum', 900, ['cercis siliquastrum', 'cercis']), // as redbud
  b('Strawberry tree', 'Arbutus unedo', 1000, ['arbutus unedo', 'arbutus']), // as holly (assumption)
  b('Box', 'Buxus sempervirens', 1000, ['box tree', 'box hedge', 'boxwood', 'buxus sempervirens', 'buxus']), // as holly (assumption)
  // Ginkgo is a gymnosperm, but it grows like a broadleaf: the broadleaf form factor fits it.
  b('Ginkgo', 'Ginkgo biloba', 850, ['maidenhair tree', 'ginkgo biloba']), // as magnolia (assumption)

  // ---- Conifers --------------------------------------------------------------------------------
  c('Leyland cypress', 'x Cuprocyparis leylandii', 800, ['leylandii', 'leylandi', 'leyland', 'conifer hedge', 'cupressocyparis leylandii', 'cuprocyparis leylandii']), // FC
  c('Lawson cypress', 'Chamaecyparis lawsoniana', 700, ['port orford cedar', 'chamaecyparis lawsoniana', 'chamaecyparis']), // WH Port-Orford-cedar: 0.39 x 1.74 = 679
  c('Monterey cypress', 'Cupressus macrocarpa', 800, ['macrocarpa', 'cupressus macrocarpa']), // as Leyland cypress (assumption)
  c('Cypress', 'Cupressus', 800, ['cupressus']), // as Leyland cypress (assumption)
  c('Western red cedar', 'Thuja plicata', 800, ['red cedar', 'western redcedar', 'thuja plicata', 'thuja']), // WH: 0.31 x 2.54 = 786
  c('Cedar of Lebanon', 'Cedrus libani', 650, ['lebanon cedar', 'cedrus libani']), // as cedar
  c('Atlas cedar', 'Cedrus atlantica', 650, ['blue atlas cedar', 'blue cedar', 'cedrus atlantica']), // as cedar
  c('Deodar', 'Cedrus deodara', 650, ['deodar cedar', 'himalayan cedar', 'cedrus deodara']), // as cedar
  c('Cedar', 'Cedrus', 650, ['cedrus']), // FC
  c('Scots pine', 'Pinus sylvestris', 850, ['scotch pine', 'pinus sylvestris']), // FC
  c('Corsican pine', 'Pinus nigra subsp. laricio', 850, ['pinus nigra laricio', 'laricio pine']), // as Scots pine (assumption)
  c('Austrian pine', 'Pinus nigra', 850, ['black pine', 'pinus nigra']), // as Scots pine (assumption)
  c('Monterey pine', 'Pinus radiata', 850, ['radiata pine', 'pinus radiata']), // as Scots pine (assumption)
  c('Pine', 'Pinus', 850, ['pinus']), // FC; WH red pine 0.41 x 1.83 = 750
  c('Norway spruce', 'Picea abies', 750, ['christmas tree', 'picea abies']), // FC
  c('Sitka spruce', 'Picea sitchensis', 650, ['picea sitchensis']), // WH: 0.33 x 1.92 = 632
  c('Blue spruce', 'Picea pungens', 750, ['colorado spruce', 'picea pungens']), // as Norway spruce (assumption)
  c('Spruce', 'Picea', 750, ['picea']), // FC
  c('Douglas fir', 'Pseudotsuga menziesii', 800, ['pseudotsuga menziesii', 'pseudotsuga']), // WH coast Douglas-fir: 0.45 x 1.76 = 792
  c('Grand fir', 'Abies grandis', 750, ['giant fir', 'abies grandis']), // WH: 0.35 x 2.14 = 747
  c('Fir', 'Abies', 800, ['silver fir', 'noble fir', 'nordmann fir', 'abies']), // FC
  c('Western hemlock', 'Tsuga heterophylla', 850, ['hemlock', 'tsuga heterophylla', 'tsuga']), // WH: 0.42 x 2.06 = 865
  c('European larch', 'Larix decidua', 900, ['larix decidua']), // as larch
  c('Japanese larch', 'Larix kaempferi', 900, ['larix kaempferi']), // as larch
  c('Larch', 'Larix', 900, ['hybrid larch', 'larix']), // FC; WH western larch 0.48 x 1.87 = 895
  c('Yew', 'Taxus baccata', 1000, ['english yew', 'common yew', 'irish yew', 'taxus baccata', 'taxus']), // FC
  c('Juniper', 'Juniperus', 600, ['eastern red cedar', 'juniperus']), // WH eastern redcedar (a juniper): 0.44 x 1.33 = 585
  c('Giant sequoia', 'Sequoiadendron giganteum', 850, ['wellingtonia', 'giant redwood', 'sierra redwood', 'sequoiadendron giganteum', 'sequoiadendron']), // as redwood (assumption)
  c('Coast redwood', 'Sequoia sempervirens', 850, ['california redwood', 'redwood', 'sequoia sempervirens', 'sequoia']), // WH redwood: 0.34 x 2.48 = 843
  c('Dawn redwood', 'Metasequoia glyptostroboides', 850, ['metasequoia glyptostroboides', 'metasequoia']), // as redwood (assumption)
  c('Swamp cypress', 'Taxodium distichum', 900, ['bald cypress', 'taxodium distichum', 'taxodium']), // WH baldcypress 0.42 x ~1.15 (assumption on MC)
  c('Monkey puzzle', 'Araucaria araucana', 850, ['chile pine', 'araucaria araucana', 'araucaria']), // as Scots pine (assumption)

  // ---- A kind without a species ---------------------------------------------------------------
  // The middle of the conifers above, and the dense-broadleaf default (UNKNOWN_SPECIES_GREEN_DENSITY_KG_M3). Assumptions.
  { ...c('Conifer', 'Pinophyta', 800, ['coniferous tree', 'coniferous', 'evergreen conifer', 'softwood']), generic: true },
  { ...b('Broadleaf tree', 'Angiospermae', 1000, ['broadleaf', 'broadleaved', 'broad leaved', 'broad leaf', 'deciduous tree', 'deciduous', 'hardwood']), generic: true },
];

/**
 * With no species named, assume a dense broadleaf: it errs toward more mass to clear,
 * so an unnamed tree is never quoted light (assumptions err toward more time; docs/analysis.md, The pipeline).
 */
export const UNKNOWN_SPECIES_GREEN_DENSITY_KG_M3 = 1000;

// ---- Matching ------------------------------------------------------------------------------------

/**
 * A name as both the matcher and the picker's search compare it: accents and apostrophes gone
 * ("Lawson's", "Hêtre"), lower case, anything but letters and digits one space.
 */
export function foldName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * A word as the matcher compares it: lower case, accents and apostrophes gone ("Lawson's"),
 * plurals made singular ("birches", "cherries", "leylandiis", "yews"). Latin endings in -us,
 * -is and -ss ("quercus", "chamaecyparis", "cypress") stay; both sides go through the same
 * function, so any other ending only has to be consistent, not correct.
 */
function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('iis')) return word.slice(0, -1);
  if (/(us|is|ss)$/.test(word)) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

function words(text: string): string[] {
  return foldName(text).split(/[^a-z]+/).filter(Boolean).map(singular);
}

interface Phrase {
  words: string[];
  species: Species;
}

/** Every name and alias as words, indexed by its first word. */
const PHRASES = new Map<string, Phrase[]>();
for (const species of SPECIES) {
  for (const name of [species.name, species.latin, ...species.aliases]) {
    const phrase = words(name);
    const first = phrase[0];
    if (!first) continue;
    const list = PHRASES.get(first) ?? [];
    list.push({ words: phrase, species });
    PHRASES.set(first, list);
  }
}

/**
 * The species a text names, or null: a picker's choice ("Scots pine"), a model's answer
 * ("English oak", "Quercus robur (pedunculate oak)", "Leyland Cypress trees") or a customer's
 * sentence ("two silver birches by the fence"). The first name in the text wins, and where
 * names start at the same word the longest does, so "horse chestnut" is not a chestnut,
 * "mountain ash" not an ash and "cherry laurel" not a cherry. A bare kind ("conifer") gives
 * way to a species named later ("conifer, probably a Scots pine").
 */
export function matchSpecies(text: string | null | undefined): Species | null {
  if (!text) return null;
  const tokens = words(text);
  let kindOnly: Species | null = null;
  for (let i = 0; i < tokens.length; i += 1) {
    let best: Phrase | null = null;
    for (const phrase of PHRASES.get(tokens[i]!) ?? []) {
      const fits = phrase.words.every((word, k) => tokens[i + k] === word);
      if (fits && (!best || phrase.words.length > best.words.length)) best = phrase;
    }
    if (best && !best.species.generic) return best.species;
    kindOnly ??= best?.species ?? null;
  }
  return kindOnly;
}

/** The wood density text shown on results, e.g. "High (about 1,050 kg/m³ green)". */
export function describeWoodDensity(greenDensityKgM3: number): string {
  const band = greenDensityKgM3 >= 950 ? 'High' : greenDensityKgM3 >= 800 ? 'Medium' : 'Low';
  return `${band} (about ${greenDensityKgM3.toLocaleString('en-GB')} kg/m³ green)`;
}
