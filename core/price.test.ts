import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICING_RULES, equipmentFor, formatPrice, priceFromCost, priceJob, priceRows, vatOn, type PriceInput } from './price';

const bigJob: PriceInput = {
  minutes: { min: 330, max: 480 },
  hourlyRatePence: 9000,
  rules: {
    crewSize: 3,
    minimumChargePence: 25000,
    travelPence: 3500,
    wastePerTonnePence: 8000,
    stumpGrindingPence: 12000,
    accessPlatformPence: 28000,
    trafficManagementPence: 15000,
    vatMode: 'inc',
  },
  greenTonnes: 1.2,
  wasteRemoval: true,
  stumpGrinding: true,
  accessPlatform: false,
  trafficManagement: true,
};

describe('priceJob', () => {
  it('prices crew time, travel, waste by weight and the equipment the job needs, then VAT on each end', () => {
    const price = priceJob(bigJob)!;
    // 5.5 h x £90 = £495; 8 h x £90 = £720. 1.2 t x £80 = £96.
    expect(price.lines.map((l) => [l.code, l.minPence, l.maxPence])).toEqual([
      ['labour', 49500, 72000],
      ['travel', 3500, 3500],
      ['waste', 9600, 9600],
      ['stump_grinder', 12000, 12000],
      ['traffic_management', 15000, 15000],
    ]);
    expect(price.lines[0]!.detail).toBe('5.5-8.0 crew-hours at £90.00 an hour (crew of 3)');
    expect(price.lines[2]!.detail).toBe('About 1.2 tonnes of green waste at £80.00 a tonne');
    expect([price.netMinPence, price.netMaxPence]).toEqual([89600, 112100]);
    expect([price.vatMinPence, price.vatMaxPence]).toEqual([17920, 22420]);
    expect([price.grossMinPence, price.grossMaxPence]).toEqual([107520, 134520]);
    expect(price.minimumChargePence).toBe(0);
    expect(formatPrice(price)).toBe('£1,075.20 - £1,345.20 inc VAT');
  });

  it('raises a small job to the minimum charge, which a redbud with its stump ground out reaches', () => {
    const price = priceJob({
      ...bigJob,
      minutes: { min: 60, max: 90 },
      hourlyRatePence: 4500,
      greenTonnes: 0.1,
      trafficManagement: false,
      rules: { ...bigJob.rules, minimumChargePence: 30000, travelPence: 0, wastePerTonnePence: 0, stumpGrindingPence: 9000 },
    })!;
    // £45 + £90 = £135 up to £67.50 + £90 = £157.50: both ends below £300.
    expect([price.netMinPence, price.netMaxPence]).toEqual([30000, 30000]);
    expect(price.minimumChargePence).toBe(30000);
    expect(formatPrice(price)).toBe('£360.00 inc VAT');
    expect(priceRows(price).map((r) => `${r.label}: ${r.value}`)).toEqual([
      'Crew time: £45.00 - £67.50',
      'Stump grinder: £90.00',
      'Minimum charge: £300.00',
      'Total ex VAT: £300.00',
      'VAT at 20%: £60.00',
      'Total inc VAT: £360.00',
    ]);
  });

  it('applies the minimum to the lower end only when the upper end is above it', () => {
    const price = priceJob({ ...bigJob, rules: { ...bigJob.rules, minimumChargePence: 100000, vatMode: 'ex' } })!;
    expect([price.netMinPence, price.netMaxPence]).toEqual([100000, 112100]);
    expect(formatPrice(price)).toBe('£1,000.00 - £1,121.00 ex VAT');
    expect(priceRows(price).find((r) => r.strong)?.label).toBe('Total ex VAT');
  });

  it('leaves out what the job does not need and what the contractor does not charge', () => {
    const price = priceJob({ ...bigJob, wasteRemoval: false, stumpGrinding: false, trafficManagement: false, rules: { ...DEFAULT_PRICING_RULES } })!;
    expect(price.lines.map((l) => l.code)).toEqual(['labour']);
    expect(price.vatMode).toBe('none');
    expect(formatPrice(price)).toBe('£495.00 - £720.00 no VAT');
    expect(priceRows(price).at(-1)).toEqual({ label: 'Total (no VAT charged)', value: '£495.00 - £720.00', strong: true });
  });

  it('has no price at a rate of 0, whatever the other rules say', () => {
    expect(priceJob({ ...bigJob, hourlyRatePence: 0 })).toBeNull();
  });

  it('rounds VAT to the nearer penny, a half penny up', () => {
    // 2.25 h x £30.01 = £67.5225 -> £67.52, VAT £13.504 -> £13.50; 3.5 h = £105.035 -> £105.04, VAT £21.008 -> £21.01.
    const price = priceJob({
      ...bigJob,
      minutes: { min: 135, max: 210 },
      hourlyRatePence: 3001,
      wasteRemoval: false,
      stumpGrinding: false,
      trafficManagement: false,
      rules: { ...DEFAULT_PRICING_RULES, vatMode: 'inc' },
    })!;
    expect([price.netMinPence, price.netMaxPence]).toEqual([6752, 10504]);
    expect([price.vatMinPence, price.vatMaxPence]).toEqual([1350, 2101]);
  });
});

describe('equipmentFor', () => {
  it('calls for a platform only on a dismantle a vehicle can reach, and traffic management beside a road', () => {
    expect(equipmentFor({ targets: 'building', access: 'open' }, 'climb_dismantle')).toEqual({ accessPlatform: true, trafficManagement: false });
    expect(equipmentFor({ targets: 'building', access: 'side_gate' }, 'climb_dismantle').accessPlatform).toBe(false);
    expect(equipmentFor({ targets: 'road', access: 'open' }, 'section_fell')).toEqual({ accessPlatform: false, trafficManagement: true });
  });
});

describe('priceFromCost', () => {
  it('shows an analysis stored before pricing rules as its cost alone, saying nothing of VAT', () => {
    const price = priceFromCost({ minPence: 6753, maxPence: 10502 }, { min: 135, max: 210 }, 3000)!;
    expect(formatPrice(price)).toBe('£67.53 - £105.02');
    expect(priceRows(price).map((r) => r.label)).toEqual(['Crew time', 'Total']);
  });
});

describe('vatOn', () => {
  it('is 20% in whole pence', () => {
    expect(vatOn(10_000)).toBe(2_000);
    expect(vatOn(6_753)).toBe(1_351);
    expect(vatOn(10_502)).toBe(2_100);
    expect(vatOn(0)).toBe(0);
  });

  it('rounds a half penny up (at 20% a whole-penny price never lands on one; at 5% it can)', () => {
    expect(vatOn(10, 5)).toBe(1);
    expect(vatOn(30, 5)).toBe(2);
    expect(vatOn(29, 5)).toBe(1);
    expect(vatOn(1, 20)).toBe(0);
    expect(vatOn(3, 20)).toBe(1);
  });

  it('is exact at the largest price a decimal(10,2) rate can give (no float drift)', () => {
    // £99,999,999.99: VAT 1,999,999,999.8p rounds to 2,000,000,000p.
    expect(vatOn(9_999_999_999)).toBe(2_000_000_000);
  });
});
