import { describe, expect, it } from 'vitest';
import { renderMyDays } from './first-view';

/*
 * My days' first view as the server sends it in the page (server/http/crew-home.ts): the crew's
 * own screen, drawn from the answers, before the phone's script has arrived.
 */
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
const me = {
  user: { id: 7, username: 'member7', email: 'sam@example.com', firstName: 'Sam', lastName: 'Field', role: 'user', createdAt: '2026-06-01T09:00:00.000Z' },
  member: { memberId: 4, name: 'Sam Field', role: 'crew', businessName: 'Oak & Ash Tree Surgery' },
};
const booking = (jobId: number, customerName: string, extra: Record<string, unknown> = {}) => ({
  jobId,
  reference: `Q-${String(jobId).padStart(6, '0')}`,
  customerName,
  postcode: 'LS6 2AB',
  siteAddress: `${jobId} Oak Lane, Leeds`,
  crewId: 3,
  date: today,
  firstDay: today,
  startTime: '08:00',
  dayNumber: 1,
  days: 1,
  dayLabel: null,
  estimatedMinutes: { min: 120, max: 180 },
  holds: [],
  arrivalWindow: null,
  ...extra,
});
const myDays = {
  days: [
    { date: today, bookings: [booking(12, 'Ann <script>alert(1)</script>'), booking(13, 'Bo Birch', { startTime: '11:00', arrivalWindow: { from: '11:00', to: '12:30' } })] },
    { date: '2099-01-01', bookings: [] },
  ],
};

describe("My days' first view", () => {
  it('is the crew screen with each job a link to its sheet, the header saying who is signed in, nothing about money', () => {
    const html = renderMyDays({ me, myDays, asOf: Date.now() });
    if (html === null) throw new Error('not drawn');
    expect(html).toMatch(/<h1[^>]*>My days<\/h1>/);
    expect(html.match(/data-testid="my-day-booking"/g)).toHaveLength(2);
    expect(html).toContain('href="/my-days/jobs/12"');
    expect(html).toContain('href="/my-days/jobs/13"');
    expect(html).toContain('Arrive between 11:00 and 12:30');
    expect(html).toMatch(/<h2[^>]*>Today, /);
    expect(html).toContain('Sam Field · Crew');
    expect(html).toContain('Oak &amp; Ash Tree Surgery');
    // A customer's name is text: escaped, never markup.
    expect(html).toContain('Ann &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('£');
    // Fresh from the server: no "kept on this phone" note, no spinner.
    expect(html).not.toContain('Kept on this phone');
    expect(html).not.toContain('Loading');
    // What waits on the phone is the phone's to say, once its script runs.
    expect(html).toContain('Looking for changes kept on this phone');
    expect(html).not.toContain('Everything is sent');
  });

  it('says so when nothing is booked, and draws nothing from answers that are not the screen’s', () => {
    expect(renderMyDays({ me, myDays: { days: [{ date: today, bookings: [] }] }, asOf: Date.now() })).toContain('No work booked for you yet');
    expect(renderMyDays({ me, myDays: { days: 'soon' }, asOf: Date.now() })).toBeNull();
    expect(renderMyDays({ me: { user: null }, myDays, asOf: Date.now() })).toBeNull();
    expect(renderMyDays({ me, myDays, asOf: Number.NaN })).toBeNull();
  });
});
