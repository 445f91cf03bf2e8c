import { describe, expect, it } from 'vitest';
import {
  addWorkingDays,
  inNestingSeason,
  isNestingWork,
  lookupWords,
  nestingCheck,
  normalisePlaces,
  normaliseWebsite,
  postcodeAtEnd,
  protectionHold,
  protectionRecordSchema,
  refusesBooking,
  type LookupFindings,
} from './protection';

const BRISTOL = { name: 'Bristol City Council', website: 'https://www.bristol.gov.uk/' };
const none: LookupFindings = { council: BRISTOL, conservationAreas: [], preservationZones: [], protectedTrees: [] };
const clifton: LookupFindings = { ...none, conservationAreas: [{ name: 'Clifton', reference: 'CA-1' }] };
const tpo: LookupFindings = { ...none, preservationZones: [{ name: 'Zone A', reference: 'TPO-1' }] };

describe('the postcode ending a site address', () => {
  it.each([
    ['11 Montpellier Walk, Cheltenham GL50 1QA', 'GL50 1QA'],
    ['11 Montpellier Walk, Cheltenham, gl501qa.', 'GL50 1QA'],
    ['Flat 2, 1 Clifton Down, Bristol BS8 4AA ', 'BS8 4AA'],
    ['1 Whitehall, London SW1A 2AA', 'SW1A 2AA'],
  ])('%s → %s', (address, postcode) => expect(postcodeAtEnd(address)).toBe(postcode));

  it.each([[null], [''], ['The Old Rectory, Lower Slaughter'], ['BS8 4AA, 1 Clifton Down'], ['Unit QQ1 1AA']])('none in %s', (address) => expect(postcodeAtEnd(address)).toBeNull());
});

describe('the words', () => {
  it('name the conservation area and the council', () => {
    expect(lookupWords('found', clifton)).toEqual(['In the Clifton conservation area (Bristol City Council)']);
  });
  it('say a TPO area covers the postcode', () => {
    expect(lookupWords('found', tpo)).toEqual(['A Tree Preservation Order area covers this postcode']);
  });
  it('say none found is not the same as none there, naming the council to check with', () => {
    expect(lookupWords('none_found', none)).toEqual(['None found in the public data, which is incomplete: check with Bristol City Council']);
    expect(lookupWords('none_found', { ...none, council: null })).toEqual(['None found in the public data, which is incomplete: check with the local council']);
  });
  it('say "Not checked yet" for a lookup not made or failed', () => {
    expect(lookupWords('not_checked', none)).toEqual(['Not checked yet']);
    expect(lookupWords('failed', clifton)).toEqual(['Not checked yet']);
  });
});

describe('outside answers, normalised once', () => {
  it('keeps named places once, plain, bounded', () => {
    expect(normalisePlaces([{ name: 'Clifton\u202e\n', reference: 12 }, { name: 'Clifton', reference: '12' }, { name: null, reference: null }, { name: 'x'.repeat(300), reference: 'R' }])).toEqual([
      { name: 'Clifton', reference: '12' },
      { name: 'x'.repeat(200), reference: 'R' },
    ]);
  });
  it('keeps a website only when it is http(s)', () => {
    expect(normaliseWebsite('https://www.bristol.gov.uk')).toBe('https://www.bristol.gov.uk/');
    expect(normaliseWebsite('javascript:alert(1)')).toBeNull();
    expect(normaliseWebsite(42)).toBeNull();
  });
});

describe('the hold on booking', () => {
  const found = (f: LookupFindings) => ({ status: 'found' as const, ...f });

  it('a section 211 notice: six weeks from the day it was sent', () => {
    const hold = protectionHold(found(clifton), { outcome: 's211_notice_sent', on: '2027-01-29' });
    expect(hold).toEqual({ earliestStart: '2027-03-12', missing: [] });
    expect(refusesBooking(hold, '2027-03-11')).toBe(true);
    expect(refusesBooking(hold, '2027-03-12')).toBe(false);
  });

  it('dead or dangerous: five working days, weekends skipped', () => {
    // Friday 4 December 2026 + 5 working days = Friday 11 December.
    expect(protectionHold(found(tpo), { outcome: 'dead_or_dangerous', on: '2026-12-04' })).toEqual({ earliestStart: '2026-12-11', missing: [] });
    expect(addWorkingDays('2026-12-05', 1)).toBe('2026-12-07');
  });

  it('a TPO: held until consent, whatever notice was sent', () => {
    expect(protectionHold(found(tpo), null)).toEqual({ earliestStart: null, missing: ['tpo_consent'] });
    expect(protectionHold(found(tpo), { outcome: 's211_notice_sent', on: '2026-06-01' }).missing).toEqual(['tpo_consent']);
    for (const outcome of ['tpo_consent', 'not_protected', 'exempt'] as const) {
      expect(protectionHold(found(tpo), { outcome, on: '2026-06-01' })).toEqual({ earliestStart: null, missing: [] });
    }
  });

  it('a conservation area with no record: held until a notice', () => {
    expect(protectionHold(found(clifton), null)).toEqual({ earliestStart: null, missing: ['s211_notice'] });
  });

  it('nothing found, not checked or failed, no record: books as before', () => {
    for (const status of ['none_found', 'not_checked', 'failed'] as const) {
      expect(refusesBooking(protectionHold({ status, ...clifton }, null), '2026-06-02')).toBe(false);
    }
  });
});

describe('nesting birds', () => {
  it('felling, reductions and hedge work, by their words', () => {
    expect(isNestingWork(['Remove the English oak (about 14 m tall).'])).toBe(true);
    expect(isNestingWork(['Crown reduction of 2 m'])).toBe(true);
    expect(isNestingWork(['Trim the beech hedge'])).toBe(true);
    expect(isNestingWork(['Deadwood the ash', 'Grind the stump'])).toBe(false);
    // A whole word: "hedgehog house" is not hedge work, "refelled" not felling.
    expect(isNestingWork(['Leave the hedgehog house'])).toBe(false);
  });

  it('1 March to 31 August inclusive, any day of the booking', () => {
    expect(inNestingSeason('2027-03-01', 1)).toBe(true);
    expect(inNestingSeason('2027-08-31', 1)).toBe(true);
    expect(inNestingSeason('2027-02-28', 1)).toBe(false);
    expect(inNestingSeason('2027-02-27', 3)).toBe(true);
    expect(inNestingSeason('2027-09-01', 1)).toBe(false);
  });

  it('the line, or null', () => {
    expect(nestingCheck(['Fell the sycamore'], '2027-05-10', 1)).toBe('Check for nesting birds before starting');
    expect(nestingCheck(['Fell the sycamore'], '2027-11-10', 1)).toBeNull();
    expect(nestingCheck(['Grind the stump'], '2027-05-10', 1)).toBeNull();
  });
});

describe('the record body', () => {
  it('takes the five outcomes and a real date, cleaning the text', () => {
    expect(protectionRecordSchema.parse({ outcome: 'tpo_consent', on: '2026-06-01', reference: ' 21/0042/TPO ', note: '' })).toEqual({ outcome: 'tpo_consent', on: '2026-06-01', reference: '21/0042/TPO', note: null });
    expect(protectionRecordSchema.safeParse({ outcome: 'not_protected', on: '2026-13-01' }).success).toBe(false);
    expect(protectionRecordSchema.safeParse({ outcome: 'protected', on: '2026-06-01' }).success).toBe(false);
  });
});
