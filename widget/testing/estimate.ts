import type { EmbedAnalysis, EmbedAnalyzeResponse } from '../../core/embed-api';
import type { PublicBusiness } from '../../core/business';

/**
 * Whole answers as the server sends them, typed by the same schemas (core/business.ts,
 * core/embed-api.ts), so a test cannot pass with half an answer: a field added to the
 * contract has to be added here too.
 */
export const PUBLIC_BUSINESS: PublicBusiness = {
  name: 'Oak',
  slug: 'oak',
  hourlyRate: '40.00',
  accentColor: null,
  status: 'available',
  units: 'metric',
  sizesFromPhoto: false,
};

export const ESTIMATE_ANALYSIS: EmbedAnalysis = {
  id: 9,
  species: 'English oak',
  diameter: 16,
  height: 40,
  woodDensity: 'High (about 1,050 kg/m³ green)',
  cuttingTimeMin: 10,
  cuttingTimeMax: 20,
  prepTimeMin: 5,
  prepTimeMax: 5,
  cleanupTimeMin: 15,
  cleanupTimeMax: 30,
  factors: ['Method: section fell'],
  assumptions: [],
  safetyWarnings: [],
  confidence: 0.4,
  siteVisitReason: null,
  enteredSizes: null,
  hourlyRate: '40.00',
  cost: { min: '24.00', max: '44.00' },
  // Crew time alone at £40 an hour, no VAT charged (core/price.ts JobPrice).
  price: {
    lines: [{ code: 'labour', label: 'Crew time', detail: '0.5 - 0.9 hours at £40.00 an hour', minPence: 2400, maxPence: 4400 }],
    minimumChargePence: 0,
    netMinPence: 2400,
    netMaxPence: 4400,
    vatMode: 'none',
    vatRatePercent: 0,
    vatMinPence: 0,
    vatMaxPence: 0,
    grossMinPence: 2400,
    grossMaxPence: 4400,
    crewSize: 2,
  },
  sizeWarnings: [],
  chosenBands: { height: null, diameter: null },
  included: [{ text: 'Setting up and protecting the work area', included: true }],
  guide: {
    price: { minPence: 2500, maxPence: 4500, vatMode: 'none' },
    nextStep: { visit: false, heading: "We'll confirm the price with you", reasons: [] },
    madeUp: [
      { label: "The crew's time", detail: 'A crew of 2 for about an hour', value: '£25 - £45' },
      { label: 'Guide price', value: 'about £25 - £45', strong: true },
    ],
    goodToKnow: [],
  },
};

export const ESTIMATE: EmbedAnalyzeResponse = {
  outcome: 'estimate',
  analysis: ESTIMATE_ANALYSIS,
  confidence: 0.4,
  cost: { min: '24.00', max: '44.00' },
  leadToken: 'test-lead-token-not-a-real-one',
};
