import { describe, expect, it } from 'vitest';
import { matchSpecies, SPECIES } from './species';

/** [what a picker, a model or a customer writes, the species it must mean] */
const NAMES: [string, string][] = [
  // The names and qualifiers
  ['English oak', 'Oak'],
  ['sessile oak', 'Oak'],
  ['Pedunculate Oak', 'Oak'],
  ['oaks', 'Oak'],
  ['Quercus robur', 'Oak'],
  ['Quercus robur (pedunculate oak)', 'Oak'],
  ['Scots pine', 'Scots pine'],
  ['Scotch pine', 'Scots pine'],
  ['Pinus sylvestris', 'Scots pine'],
  ['Corsican pine', 'Corsican pine'],
  ['Austrian pine', 'Austrian pine'],
  ['pine trees', 'Pine'],
  ['silver birch', 'Silver birch'],
  ['two silver birches', 'Silver birch'],
  ['Betula pendula', 'Silver birch'],
  ['birches', 'Birch'],
  ['Himalayan birch', 'Himalayan birch'],
  ['leylandii', 'Leyland cypress'],
  ['Leylandii hedge', 'Leyland cypress'],
  ['leylandiis', 'Leyland cypress'],
  ['Leyland Cypress trees', 'Leyland cypress'],
  ['sycamore', 'Sycamore'],
  ['Sycamores', 'Sycamore'],
  ['Acer pseudoplatanus', 'Sycamore'],
  ['London plane', 'London plane'],
  ['plane tree', 'London plane'],
  ['field maple', 'Field maple'],
  ['Norway maple', 'Norway maple'],
  ['Japanese maple', 'Japanese maple'],
  ['maple', 'Maple'],
  ['acer', 'Maple'],
  ['cherry laurel', 'Cherry laurel'],
  ['laurel hedge', 'Cherry laurel'],
  ['Portuguese laurel', 'Portuguese laurel'],
  ["Lawson cypress", 'Lawson cypress'],
  ["Lawson's cypress", 'Lawson cypress'],
  ['western red cedar', 'Western red cedar'],
  ['Thuja plicata', 'Western red cedar'],
  ['Cedar of Lebanon', 'Cedar of Lebanon'],
  ['cedar', 'Cedar'],
  // Longest name first
  ['horse chestnut', 'Horse chestnut'],
  ['Horse-chestnut', 'Horse chestnut'],
  ['conker tree', 'Horse chestnut'],
  ['sweet chestnut', 'Sweet chestnut'],
  ['chestnut', 'Sweet chestnut'],
  ['mountain ash', 'Rowan'],
  ['rowan', 'Rowan'],
  ['ash', 'Ash'],
  ['ash with ash dieback', 'Ash'],
  ['Fraxinus excelsior', 'Ash'],
  ['copper beech', 'Beech'],
  ['beeches', 'Beech'],
  ['hornbeam', 'Hornbeam'],
  ['hawthorn', 'Hawthorn'],
  ['blackthorn', 'Blackthorn'],
  ['holly', 'Holly'],
  ['hollies', 'Holly'],
  ['whitebeam', 'Whitebeam'],
  ['wild cherry', 'Wild cherry'],
  ['flowering cherry', 'Flowering cherry'],
  ['cherries', 'Cherry'],
  ['damson', 'Plum'],
  ['apple tree', 'Apple'],
  ['crab apple', 'Crab apple'],
  ['pear', 'Pear'],
  ['lime tree', 'Lime'],
  ['limes', 'Lime'],
  ['linden', 'Lime'],
  ['small-leaved lime', 'Small-leaved lime'],
  ['English elm', 'English elm'],
  ['American elm', 'American elm'],
  ['elm', 'Elm'],
  ['walnut', 'Walnut'],
  ['Black Walnut', 'Black walnut'],
  ['weeping willow', 'Weeping willow'],
  ['willows', 'Willow'],
  ['Lombardy poplar', 'Lombardy poplar'],
  ['poplar', 'Poplar'],
  ['aspen', 'Aspen'],
  ['alder', 'Alder'],
  ['hazel', 'Hazel'],
  ['magnolia', 'Magnolia'],
  ['eucalyptus', 'Eucalyptus'],
  ['gum tree', 'Eucalyptus'],
  ['tulip tree', 'Tulip tree'],
  ['false acacia', 'False acacia'],
  ['Robinia', 'False acacia'],
  ['Indian bean tree', 'Indian bean tree'],
  ['tree of heaven', 'Tree of heaven'],
  ['mulberry', 'Mulberry'],
  ['laburnum', 'Laburnum'],
  ['elder', 'Elder'],
  ['redbud', 'Redbud'],
  ['Cercis canadensis', 'Redbud'],
  ['Judas tree', 'Judas tree'],
  ['bay tree', 'Bay laurel'],
  ['box hedge', 'Box'],
  ['ginkgo', 'Ginkgo'],
  ['Bigleaf maple', 'Bigleaf maple'],
  // Conifers
  ['Monterey cypress', 'Monterey cypress'],
  ['cypresses', 'Cypress'],
  ['Norway spruce', 'Norway spruce'],
  ['Christmas tree', 'Norway spruce'],
  ['Sitka spruce', 'Sitka spruce'],
  ['spruce', 'Spruce'],
  ['Douglas fir', 'Douglas fir'],
  ['firs', 'Fir'],
  ['larches', 'Larch'],
  ['Japanese larch', 'Japanese larch'],
  ['yews', 'Yew'],
  ['Taxus baccata', 'Yew'],
  ['juniper', 'Juniper'],
  ['Wellingtonia', 'Giant sequoia'],
  ['giant redwood', 'Giant sequoia'],
  ['coast redwood', 'Coast redwood'],
  ['dawn redwood', 'Dawn redwood'],
  ['monkey puzzle', 'Monkey puzzle'],
  // Kinds without a species, and a species named after a kind
  ['conifer', 'Conifer'],
  ['conifers', 'Conifer'],
  ['conifer, probably a Scots pine', 'Scots pine'],
  ['Deciduous tree, possibly maple', 'Maple'],
  ['broadleaf', 'Broadleaf tree'],
  // In a customer's sentence
  ['we have a big old oak in the back garden', 'Oak'],
  ['The SYCAMORE next to the garage', 'Sycamore'],
  ['overgrown leylandii along the fence, about 20 ft', 'Leyland cypress'],
];

describe('matchSpecies', () => {
  it('knows at least 60 trees common in UK gardens and streets', () => {
    expect(SPECIES.filter((s) => !s.generic).length).toBeGreaterThanOrEqual(60);
  });

  it.each(NAMES)('"%s" is %s', (text, name) => {
    expect(matchSpecies(text)?.name).toBe(name);
  });

  it('checks at least 60 names and variants', () => {
    expect(NAMES.length).toBeGreaterThanOrEqual(60);
  });

  it('matches every listed name exactly to itself (what the picker sends)', () => {
    for (const s of SPECIES) expect(matchSpecies(s.name)?.name, s.name).toBe(s.name);
  });

  it('matches every alias to its own species, unless a longer name takes it', () => {
    for (const s of SPECIES) {
      for (const alias of s.aliases) {
        const found = matchSpecies(alias);
        expect(found, alias).not.toBeNull();
      }
    }
  });

  it('gives conifers the conifer kind and broadleaves the broadleaf kind', () => {
    for (const name of ['Scots pine', 'leylandii', 'Lawson cypress', 'western red cedar', 'yew', 'larch', 'conifer']) {
      expect(matchSpecies(name)?.kind, name).toBe('conifer');
    }
    for (const name of ['English oak', 'silver birch', 'sycamore', 'London plane', 'cherry laurel', 'ginkgo']) {
      expect(matchSpecies(name)?.kind, name).toBe('broadleaf');
    }
  });

  it('finds nothing in words that are not a tree, or inside other words', () => {
    for (const text of ['', 'some tree', 'a big one by the house', 'Unknown', 'washing line', 'limestone wall', 'oakley road', 'pineapple', 'elderly neighbour', null, undefined]) {
      expect(matchSpecies(text), String(text)).toBeNull();
    }
  });

  it('has a plausible green density and a Latin name for every tree', () => {
    for (const s of SPECIES) {
      expect(s.greenDensityKgM3, s.name).toBeGreaterThanOrEqual(550);
      expect(s.greenDensityKgM3, s.name).toBeLessThanOrEqual(1150);
      expect(s.greenDensityKgM3 % 50, s.name).toBe(0);
      expect(s.latin.length, s.name).toBeGreaterThan(2);
    }
  });

  it('has unique names', () => {
    expect(new Set(SPECIES.map((s) => s.name.toLowerCase())).size).toBe(SPECIES.length);
  });
});
