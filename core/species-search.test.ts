import { describe, expect, it } from 'vitest';
import { SPECIES } from './species';
import { commonSpeciesOptions, COMMON_UK_TREES, exactSpecies, NOT_SURE, speciesOptions } from './species-search';
import { foldName } from './species';

describe('the species picker list', () => {
  it('offers "Not sure" and every listed species with nothing typed, the kinds without a species last', () => {
    const all = speciesOptions('');
    expect(all[0]).toBe(NOT_SURE);
    expect(all).toHaveLength(SPECIES.length + 1);
    expect(all.length).toBeGreaterThan(60);
    expect(all.slice(-2).map((o) => o.label).sort()).toEqual(['Broadleaf tree', 'Conifer']);
  });

  it('filters by name first, names starting with the text before names containing a word that does', () => {
    const labels = speciesOptions('sc').map((o) => o.label);
    expect(labels[0]).toBe('Not sure');
    expect(labels[1]).toBe('Scots pine');
    const pines = speciesOptions('pine').map((o) => o.label);
    expect(pines[1]).toBe('Pine');
    expect(pines).toContain('Scots pine');
    expect(speciesOptions('OAK').map((o) => o.label)).toContain('Oak');
  });

  it('finds a species by its other names and Latin name, and says which other name matched', () => {
    const leylandii = speciesOptions('leylandii').find((o) => o.value === 'Leyland cypress');
    expect(leylandii?.matched).toBe('leylandii');
    expect(leylandii?.kind).toBe('conifer');
    const quercus = speciesOptions('quercus robur').find((o) => o.value === 'Oak');
    expect(quercus).toBeDefined();
    expect(quercus?.matched).toBeNull();
  });

  it('keeps only "Not sure" when nothing matches', () => {
    expect(speciesOptions('zzzz')).toEqual([NOT_SURE]);
  });

  it('names the listed species a typed text names, as the server would read it', () => {
    expect(exactSpecies(' oak ')).toBe('Oak');
    expect(exactSpecies('English oak')).toBe('Oak');
    expect(exactSpecies('leylandii')).toBe('Leyland cypress');
    expect(exactSpecies('scots pines')).toBe('Scots pine');
    expect(exactSpecies('oa')).toBeUndefined();
    expect(exactSpecies('')).toBeUndefined();
  });

  it("folds accents, apostrophes and case as the server's matcher does (core/species.ts foldName)", () => {
    expect(foldName("  LAWSON’S  Cypress! ")).toBe('lawsons cypress');
    expect(foldName('Hêtre')).toBe('hetre');
    for (const typed of ['scots pine', 'SCOTS  PINE', 'Scots-pine', 'Scóts pine']) {
      expect(speciesOptions(typed)[1]?.value, typed).toBe('Scots pine');
      expect(exactSpecies(typed), typed).toBe('Scots pine');
    }
  });
});

describe('commonSpeciesOptions', () => {
  it('lists every common UK tree, in order, each one the species list knows', () => {
    const options = commonSpeciesOptions();
    expect(options.map((option) => option.value)).toEqual([...COMMON_UK_TREES]);
    expect(options[0]).toMatchObject({ value: 'Oak', kind: 'broadleaf' });
    expect(options.find((option) => option.value === 'Leyland cypress')?.kind).toBe('conifer');
  });
});
