import { describe, expect, it } from 'vitest';
import {
  guidePriceText,
  homeownerGuide,
  sumGuides,
  SURVEYOR_WORDS,
  timeOnSiteWords,
  VISIT_HEADING,
  visitReasons,
  type GuideInput,
} from './homeowner-guide';
import { priceJob, DEFAULT_PRICING_RULES } from './price';
import { SITE_ASSUMED_PREFIX } from './site-assumptions';

/** The measured maple: £609.43 - £742.44 inc VAT with a crew of 3. */
const maplePrice = {
  lines: [
    { code: 'labour' as const, label: 'Crew time', detail: '3.4-4.6 crew-hours at £95.00 an hour (crew of 3)', minPence: 45786, maxPence: 56870 },
    { code: 'waste' as const, label: 'Waste disposal', detail: 'About 1.2 tonnes of green waste at £45.00 a tonne', minPence: 5000, maxPence: 5000 },
  ],
  minimumChargePence: 0,
  netMinPence: 50786,
  netMaxPence: 61870,
  vatMode: 'inc' as const,
  vatRatePercent: 20,
  vatMinPence: 10157,
  vatMaxPence: 12374,
  grossMinPence: 60943,
  grossMaxPence: 74244,
  crewSize: 3,
};

const input = (over: Partial<GuideInput> = {}): GuideInput => ({
  price: maplePrice,
  minutes: { min: 204, max: 276 },
  site: { targets: 'nothing', powerLines: false, access: 'open' },
  factors: [],
  heightFt: 38,
  dbhIn: 16,
  visitRecommended: false,
  at: new Date('2026-11-26T12:00:00Z'),
  roundingPence: 500,
  ...over,
});

describe('the guide price', () => {
  it("is the business's rounded range in whole pounds: about £610 - £740 inc VAT", () => {
    const guide = homeownerGuide(input());
    expect(guide.price).toEqual({ minPence: 61000, maxPence: 74000, vatMode: 'inc' });
    expect(guidePriceText(guide.price!)).toBe('about £610 - £740 inc VAT');
    expect(guidePriceText(homeownerGuide(input({ roundingPence: 1000 })).price!)).toBe('about £610 - £740 inc VAT');
    expect(guidePriceText(homeownerGuide(input({ roundingPence: 100 })).price!)).toBe('about £609 - £742 inc VAT');
  });

  it('says one figure when the range is one, and nothing of VAT when none is said', () => {
    expect(guidePriceText({ minPence: 30000, maxPence: 30000, vatMode: 'none' })).toBe('about £300');
    expect(guidePriceText({ minPence: 123400, maxPence: 150000, vatMode: 'ex' })).toBe('about £1,234 - £1,500 ex VAT');
  });

  it('adds up several trees, each already rounded, and has no total without a price', () => {
    const total = sumGuides([
      { minPence: 61000, maxPence: 74000, vatMode: 'inc' },
      null,
      { minPence: 30000, maxPence: 30000, vatMode: 'inc' },
    ]);
    expect(guidePriceText(total!)).toBe('about £910 - £1,040 inc VAT');
    expect(sumGuides([null])).toBeNull();
  });

  it('is made up in plain words: the crew for about half a day, the waste, VAT, the guide price', () => {
    const rows = homeownerGuide(input()).madeUp;
    expect(rows.map((row) => row.label)).toEqual(["The crew's time", 'Taking the wood and waste away', 'VAT at 20%', 'Guide price inc VAT']);
    expect(rows[0]!.detail).toBe('A crew of 3 for about half a day');
    expect(rows.at(-1)!.value).toBe('about £610 - £740');
    const words = rows.flatMap((row) => [row.label, row.detail ?? '', row.value]).join(' ');
    expect(words).not.toMatch(SURVEYOR_WORDS);
  });

  it('has no price and nothing made up when the business shows none', () => {
    const guide = homeownerGuide(input({ price: null }));
    expect(guide.price).toBeNull();
    expect(guide.madeUp).toEqual([]);
  });

  it('is the same rows a pricing rule makes, whatever the lines', () => {
    const price = priceJob({
      minutes: { min: 840, max: 1270 },
      hourlyRatePence: 6000,
      rules: { ...DEFAULT_PRICING_RULES, crewSize: 2, travelPence: 3000, stumpGrindingPence: 9000, trafficManagementPence: 15000, minimumChargePence: 0, vatMode: 'ex' },
      greenTonnes: 3.9,
      wasteRemoval: true,
      stumpGrinding: true,
      accessPlatform: true,
      trafficManagement: true,
    })!;
    const words = homeownerGuide(input({ price, minutes: { min: 840, max: 1270 } })).madeUp.flatMap((row) => [row.label, row.detail ?? '']).join(' ');
    expect(words).toContain('A crew of 2 for about 2 days');
    expect(words).not.toMatch(SURVEYOR_WORDS);
  });
});

describe('time on site', () => {
  it.each([
    [30, 60, 'about an hour'],
    [100, 160, 'a couple of hours'],
    [204, 276, 'about half a day'],
    [400, 500, 'about a day'],
    [660, 900, 'about 1½ days'],
    [840, 1270, 'about 2 days'],
  ])('%i-%i minutes is %s', (min, max, words) => {
    expect(timeOnSiteWords(min, max)).toBe(words);
  });
});

describe('the next step', () => {
  it("where a visit is recommended: in those words, with the reasons that apply", () => {
    const guide = homeownerGuide(
      input({ visitRecommended: true, heightFt: 60, site: { targets: 'building', powerLines: true, access: 'through_house' } }),
    );
    expect(guide.nextStep).toEqual({
      visit: true,
      heading: VISIT_HEADING,
      reasons: ['It could hit a building if it fell', 'There are power lines near it', 'Everything has to be carried through the house', 'It is a large tree'],
    });
  });

  it('says what is not known yet where the visitor was not sure', () => {
    const factors = [`${SITE_ASSUMED_PREFIX}a building within falling distance, power lines may be near, side gate only access, tree height of 6 to 15 m (20 to 49 ft)`];
    expect(visitReasons({ site: {}, factors, heightFt: 49, dbhIn: 10 })).toEqual([
      'We do not know yet what it could hit if it fell',
      'There may be power lines near it',
      'We do not know yet how the crew gets to it',
      'We do not know its size yet',
    ]);
  });

  it('a road, or nothing at all to say beyond the heading', () => {
    expect(visitReasons({ site: { targets: 'road', powerLines: false, access: 'open' }, factors: [], heightFt: 20, dbhIn: 8 })).toEqual([
      'It could reach a road or pavement if it fell',
    ]);
    expect(homeownerGuide(input({ visitRecommended: true })).nextStep.reasons).toEqual([]);
  });

  it('no visit: the business confirms the price, still saying what it took into account', () => {
    const guide = homeownerGuide(input({ site: { targets: 'building', powerLines: true, access: 'open' } }));
    expect(guide.nextStep).toEqual({
      visit: false,
      heading: "We'll confirm the price with you",
      reasons: ['It could hit a building if it fell', 'There are power lines near it'],
    });
    expect(guide.goodToKnow.join(' ')).toMatch(/power lines/);
  });

  it('no visit and nothing to say: the business confirms the price; nesting birds only in the season', () => {
    expect(homeownerGuide(input()).nextStep).toEqual({ visit: false, heading: "We'll confirm the price with you", reasons: [] });
    expect(homeownerGuide(input()).goodToKnow).toHaveLength(1);
    expect(homeownerGuide(input({ at: new Date('2026-05-01T12:00:00Z') })).goodToKnow.join(' ')).toMatch(/nesting/);
  });
});

describe('SURVEYOR_WORDS', () => {
  it.each([
    '3.4-4.6 crew-hours at £95.00 an hour',
    'High (about 1,000 kg/m³ green)',
    'Method: section fell',
    'climb and dismantle',
    'Brush drag over 30 m',
    'green waste by the tonne',
    'LOLER-inspected equipment',
    'a ground-based rescue plan',
    'contact the Distribution Network Operator first',
    'Site visit recommended - low confidence (20-30%)',
    'the photo was checked for quality only',
    'Analyze Tree',
    'have a certified arborist assess it',
    'Drag a photo here',
  ])('catches %s', (text) => {
    expect(text).toMatch(SURVEYOR_WORDS);
  });

  it.each(['about £610 - £740 inc VAT', 'A crew of 3 for about half a day', 'Taking the wood and waste away', 'VAT at 20%', 'Get my price'])(
    'lets %s through',
    (text) => {
      expect(text).not.toMatch(SURVEYOR_WORDS);
    },
  );
});
