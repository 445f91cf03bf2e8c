import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import { DEFAULT_QUOTE_ROUNDING_PENCE, DEFAULT_QUOTE_TERMS, quoteTermsSchema } from '../../core/quote-settings';
import { systemSettings } from '../../db/schema';
import { createUser } from '../accounts/users';
import { startTestServer, type TestServer } from '../../testing/harness';
import { HOURLY_RATE_MESSAGE, hourlyRatePence, MAX_HOURLY_RATE_PENCE } from './hourly-rate';
import { applySettingsPatch, getSettings, getShareJobTimes, settingsResponseFor } from './settings';

let server: TestServer;
let userId: number;
beforeEach(async () => {
  server = await startTestServer();
  userId = createUser(server.db, server.clock, { username: 'sam', email: 'sam@example.com', passwordHash: 'x', firstName: '', lastName: '' }).id;
});
afterEach(async () => {
  await server.close();
});

describe('hourlyRatePence', () => {
  it('holds pounds text in pence, up to what the rate can hold', () => {
    expect(hourlyRatePence('0')).toBe(0);
    expect(hourlyRatePence('45.50')).toBe(4550);
    expect(hourlyRatePence('99999999.99')).toBe(MAX_HOURLY_RATE_PENCE);
  });

  it('refuses a rate past £99,999,999.99 as a validation error on hourlyRate', () => {
    const refusal = (() => {
      try {
        hourlyRatePence('100000000');
      } catch (err) {
        return err;
      }
    })();
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: 'VALIDATION_ERROR', message: HOURLY_RATE_MESSAGE, details: { hourlyRate: [HOURLY_RATE_MESSAGE] } });
  });
});

describe('applySettingsPatch', () => {
  const pricing = {
    crewSize: 3,
    minimumChargePence: 15000,
    travelPence: 2500,
    wastePerTonnePence: 9000,
    stumpGrindingPence: 12000,
    accessPlatformPence: 30000,
    trafficManagementPence: 20000,
    vatMode: 'ex' as const,
  };

  it('saves every part sent, trimmed and in pence, and answers the saved settings', () => {
    const { db, clock } = server;
    const answer = applySettingsPatch(db, clock, userId, {
      aiInstructions: '  Oaks are slow here  ',
      hourlyRate: '62.5',
      units: 'imperial',
      pricing,
      shareJobTimes: false,
    });
    expect(getSettings(db, userId)).toEqual({
      aiInstructions: 'Oaks are slow here',
      hourlyRatePence: 6250,
      units: 'imperial',
      pricing,
      quoteRoundingPence: DEFAULT_QUOTE_ROUNDING_PENCE,
      quoteTerms: DEFAULT_QUOTE_TERMS,
      quoteReminderDays: 5,
      nestingSeason: { from: '03-01', to: '08-31' },
    });
    expect(getShareJobTimes(db, userId)).toBe(false);
    expect(answer).toEqual(settingsResponseFor(db, userId));
    expect(answer.hourlyRate).toBe('62.50');
  });

  it('leaves what was not sent as it was', () => {
    const { db, clock } = server;
    applySettingsPatch(db, clock, userId, { aiInstructions: 'Crew of two', hourlyRate: '40' });
    applySettingsPatch(db, clock, userId, { units: 'imperial' });
    expect(getSettings(db, userId)).toMatchObject({ aiInstructions: 'Crew of two', hourlyRatePence: 4000, units: 'imperial' });
  });

  it('saves nothing when the rate is out of bounds, not even the parts before it', () => {
    const { db, clock } = server;
    applySettingsPatch(db, clock, userId, { aiInstructions: 'Before', hourlyRate: '30' });
    expect(() =>
      applySettingsPatch(db, clock, userId, { aiInstructions: 'After', hourlyRate: '100000000', shareJobTimes: false }),
    ).toThrow(HOURLY_RATE_MESSAGE);
    expect(getSettings(db, userId)).toMatchObject({ aiInstructions: 'Before', hourlyRatePence: 3000 });
    expect(getShareJobTimes(db, userId)).toBe(true);
  });

  it('keeps the standard quote terms as null, so an account that never wrote its own follows them', () => {
    const { db, clock } = server;
    const storedTerms = () => db.select({ terms: systemSettings.quoteTerms }).from(systemSettings).where(eq(systemSettings.userId, userId)).get()?.terms;
    applySettingsPatch(db, clock, userId, { quoteRounding: 1000, quoteTerms: quoteTermsSchema.parse('Cash on the day.') });
    expect(storedTerms()).toBe('Cash on the day.');
    expect(getSettings(db, userId)).toMatchObject({ quoteRoundingPence: 1000, quoteTerms: 'Cash on the day.' });
    applySettingsPatch(db, clock, userId, { quoteTerms: quoteTermsSchema.parse(DEFAULT_QUOTE_TERMS) });
    expect(storedTerms()).toBeNull();
    expect(getSettings(db, userId)).toMatchObject({ quoteRoundingPence: 1000, quoteTerms: DEFAULT_QUOTE_TERMS });
  });
});
