import { describe, expect, it } from 'vitest';
import { hospitalsToSave } from './hospitals-draft';

/* Settings' Hospitals (A&E) as typed (docs/product.md, The crew's day, The site check). */
describe('hospitalsToSave', () => {
  it('drops rows left empty and keeps the rest as typed, trimmed', () => {
    expect(hospitalsToSave([{ name: ' Leeds General Infirmary ', postcode: 'LS1 3EX' }, { name: '', postcode: '  ' }])).toEqual({
      hospitals: [{ name: 'Leeds General Infirmary', postcode: 'LS1 3EX' }],
    });
    expect(hospitalsToSave([])).toEqual({ hospitals: [] });
  });

  it('puts each error on its row and field, counting the empty rows dropped', () => {
    const result = hospitalsToSave([{ name: '', postcode: '' }, { name: 'St James', postcode: 'LS' }, { name: '', postcode: 'BS2 8HW' }]);
    expect(result).toEqual({ errors: { 1: { postcode: 'Give each hospital a UK postcode' }, 2: { name: 'Give each hospital a name of at most 100 characters' } }, message: undefined });
  });

  it('refuses more than the server keeps', () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `H${i}`, postcode: 'LS1 3EX' }));
    expect(hospitalsToSave(many)).toEqual({ errors: {}, message: 'At most 20 hospitals' });
  });
});
