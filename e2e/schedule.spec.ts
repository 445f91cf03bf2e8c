import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { cancellationPeriodMessage } from '../core/cancellation-period';
import { addDays, formatBookingDate, ukToday } from '../core/job-booking';
import type { Job } from '../core/jobs';
import { datesFrom, isoWeekday, isWorkingDay, type WorkCalendarSettings } from '../core/work-calendar';
import { calendarEvents } from '../testing/calendar';
import { dayWords, longDayWords } from '../dashboard/components/schedule/schedule-words';
import { ok } from './api-answer';
import { animationsSettled, expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import { signedInAccount } from './operator';
import { E2E_WEATHER, e2eEnv } from './rig/env';

/*
 * The crews' week in a real Chromium (docs/product.md, Schedule): an owner whose team joined from
 * their invitations makes two crews in Settings → Crews, one with a MEWP; five accepted jobs are
 * booked on them through the API; on the board at 1280 px one booking is dragged to another crew
 * and day by mouse and one by keyboard, each drop asking whether to e-mail the customer, whose
 * e-mail gives the old and new dates and the calendar file one SEQUENCE on; a drop inside a
 * customer's cancellation period is refused with its sentence and the card stays; a rained-off
 * day is postponed; the wind forecast at a MEWP crew's site is a warning in words. At 390 px the
 * board is a list by day, and a booking moves through its Move form.
 *
 * The server runs on the real clock: the week is next week (all of it to come, within the
 * forecast's reach), its working days taken from the team's calendar (Monday to Friday, England
 * and Wales' bank holidays), so the walk holds whatever day it runs.
 */

// Tall enough for the whole board: dnd-kit scrolls the page while a pointer drags near its edge,
// which would move the cells under the mouse.
const WIDE = { width: 1280, height: 1600 };
const PHONE = { width: 390, height: 844 };
const origin = () => ({ Origin: e2eEnv('baseURL') });
const TEAM_NAME = 'Alder & Ash Tree Care';
const CALENDAR: WorkCalendarSettings = { workingDays: [1, 2, 3, 4, 5], daysOff: [], bankHolidayRegion: 'england-and-wales' };

interface Booked {
  id: number;
  reference: string;
  name: string;
  email: string;
}

/** A consumer's one-line job, sent and accepted through the quote link's API. */
async function acceptedJob(request: APIRequestContext, name: string, email: string, siteAddress: string, startEarly: boolean): Promise<Booked> {
  const { job } = await ok<{ job: Job }>(request.post('/api/jobs', { data: { customer: { name, email, siteAddress } }, headers: origin() }), 201);
  await ok(request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Reduce the oak crown by 2 m and chip the brash', price: '600' }, headers: origin() }), 201);
  const sentAt = Date.now();
  await ok(request.post(`/api/jobs/${job.id}/send`, { data: {}, headers: origin() }));
  const token = /\/quote\/([A-Za-z0-9_-]{43})/.exec((await waitForMail(email, { since: sentAt, subject: /^Your quote from / })).mail.text ?? '')?.[1];
  expect(token, `the quote link to ${email}`).toBeTruthy();
  // Asking to start early lets the work be booked inside the 14 days (core/cancellation-period.ts).
  await ok(request.post(`/api/quotes/${token}/accept`, { data: { name, acceptTerms: true, optionalItemIds: [], startWithinCancellationPeriod: startEarly }, headers: origin() }));
  return { id: job.id, reference: job.reference, name, email };
}

async function book(request: APIRequestContext, job: Booked, date: string, crewId: number, days = 1): Promise<void> {
  await ok(request.post(`/api/jobs/${job.id}/book`, { data: { date, startTime: '08:00', days, crewId }, headers: origin() }));
}

/** Invited by the owner over the API; joins from the e-mail's link in a request context of their own. */
async function inviteAndJoin(page: Page, request: APIRequestContext, name: string, email: string): Promise<void> {
  const since = Date.now();
  await ok(page.request.post('/api/team/invitations', { data: { email, name, role: 'crew' }, headers: origin() }), 201);
  const { mail } = await waitForMail(email, { since, subject: /^Join / });
  const token = /\/join\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
  expect(token, mail.text).toBeTruthy();
  await ok(request.post('/api/team/join', { data: { token, name, password: `crew-pass-${Date.now()}` }, headers: origin() }), 201);
}

/** Settings → Crews: a crew added through its dialog. */
async function addCrew(page: Page, crew: { name: string; colour: string; people: string[]; mewp?: string }, shoot?: string): Promise<void> {
  const section = page.getByRole('region', { name: 'Crews' });
  await section.getByRole('button', { name: 'Add a crew' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a crew' });
  await dialog.getByLabel('Crew name').fill(crew.name);
  await dialog.getByLabel('Colour on the schedule').selectOption({ label: crew.colour });
  const people = dialog.getByRole('group', { name: 'People in the crew' });
  for (const person of crew.people) await people.getByRole('checkbox', { name: person }).check();
  if (crew.mewp) {
    await dialog.getByRole('button', { name: 'Add kit' }).click();
    await dialog.getByLabel('Kit name').fill(crew.mewp);
    await dialog.getByLabel('Kind').selectOption({ label: 'MEWP' });
  }
  if (shoot) await keepScreenshot(page, shoot);
  await dialog.getByRole('button', { name: 'Save the crew' }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByRole('list', { name: 'Crews' })).toContainText(crew.name);
}

/**
 * Holds the page's clock (installed before the page loaded) from now on: a toast stays while the
 * test reads it, however slow the machine, and only the steps the test runs move time on.
 */
async function holdClock(page: Page): Promise<void> {
  for (;;) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + 50);
      return;
    } catch (err) {
      // The page's time ran on past `now` before the pause: read it again.
      if (!String(err).includes('Cannot fast-forward to the past')) throw err;
    }
  }
}

/** The toast with this title, once the held clock has run far enough to show it (never far enough to end it). */
async function heldToast(page: Page, title: string): Promise<Locator> {
  const toast = page.locator('[data-sonner-toast]').filter({ has: page.getByText(title, { exact: true }) });
  await expect
    .poll(async () => {
      await page.clock.runFor(20);
      return toast.isVisible();
    })
    .toBe(true);
  return toast;
}

/** The drag's live region: what a screen reader hears as a card is picked up and carried. */
const dragNews = (page: Page) => page.locator('[id^="DndLiveRegion"]');

/** A mouse drag of a card's handle onto a cell, dropped once the board says the card is over it (`over`). */
async function dragByMouse(page: Page, handle: Locator, cell: Locator, over: string): Promise<void> {
  await cell.scrollIntoViewIfNeeded();
  const from = (await handle.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  // Past the sensor's 6 px, then onto the cell.
  await page.mouse.move(from.x + from.width / 2 + 12, from.y + from.height / 2 + 12, { steps: 3 });
  const to = (await cell.boundingBox())!;
  await page.mouse.move(to.x + to.width / 2, to.y + to.height - 12, { steps: 8 });
  await expect(dragNews(page)).toHaveText(over);
  await page.mouse.up();
}

test('the crews’ week: crews made in Settings, bookings dragged by mouse and keyboard with the customer e-mailed, a refused drop, a postponed day, the wind in words, and the list on a phone', async ({ page, request }) => {
  await page.setViewportSize(WIDE);
  const owner = await signedInAccount(page);
  await ok(page.request.patch('/api/system-settings', { data: { companyProfile: { tradingName: TEAM_NAME, phone: '0113 496 0000', email: 'office@alder-ash.example', address: '2 Kirkstall Road\nLeeds', vatNumber: '', quoteValidityDays: 30 } }, headers: origin() }));
  const tag = owner.username;
  for (const name of ['Sam Field', 'Lee Hart', 'Ana Ruiz']) await inviteAndJoin(page, request, name, `${name.split(' ')[0]!.toLowerCase()}-${tag}@example.test`);

  // Settings → Crews: Blue crew (two people and a MEWP) and Green crew (one person).
  await page.goto('/settings#crews');
  await addCrew(page, { name: 'Blue crew', colour: 'Blue', people: ['Sam Field', 'Lee Hart'], mewp: 'Tracked MEWP' }, 'schedule-crew-dialog-1280');
  await addCrew(page, { name: 'Green crew', colour: 'Green', people: ['Ana Ruiz'] });
  const crewList = page.getByRole('region', { name: 'Crews' }).getByRole('list', { name: 'Crews' });
  await expect(crewList).toContainText('Kit: Tracked MEWP');
  await page.getByRole('region', { name: 'Crews' }).scrollIntoViewIfNeeded();
  await expectNoSeriousAxeViolations(page, '#crews');
  await keepScreenshot(page, 'schedule-settings-crews-1280');
  const { crews } = await ok<{ crews: { id: number; name: string }[] }>(page.request.get('/api/crews'));
  const blue = crews.find((c) => c.name === 'Blue crew')!.id;
  const green = crews.find((c) => c.name === 'Green crew')!.id;

  // Next week's working days, and the last day of a cancellation period starting today.
  const today = ukToday(new Date());
  const nextMonday = addDays(today, 8 - isoWeekday(today));
  const week = datesFrom(nextMonday, 7).filter((d) => isWorkingDay(d, CALENDAR));
  expect(week.length, `working days in the week of ${nextMonday}`).toBeGreaterThanOrEqual(3);
  const [w0, w1, w2] = week as [string, string, string];
  const periodEnds = addDays(today, 14);

  // Five jobs whose customers asked to start early, and one whose customer did not.
  const [priya, tom, mina, ellen, omar, dan] = await Promise.all([
    acceptedJob(page.request, 'Priya Shah', `priya-${tag}@example.test`, `12 Elm Road, Leeds ${E2E_WEATHER.windyPostcode}`, true),
    acceptedJob(page.request, 'Tom Hale', `tom-${tag}@example.test`, '3 Beech Grove, Otley', true),
    acceptedJob(page.request, 'Mina Patel', `mina-${tag}@example.test`, '40 Larch Close, Ilkley', true),
    acceptedJob(page.request, 'Ellen Cho', `ellen-${tag}@example.test`, '7 Rowan Way, Wetherby', true),
    acceptedJob(page.request, 'Omar Reid', `omar-${tag}@example.test`, '9 Hazel Court, Pudsey', true),
    acceptedJob(page.request, 'Dan Frost', `dan-${tag}@example.test`, '1 Holly Lane, Horsforth', false),
  ]);
  const bookedAt = Date.now();
  await book(page.request, priya, w0, blue);
  await book(page.request, tom, w0, blue);
  await book(page.request, mina, w0, green);
  await book(page.request, ellen, w1, green);
  await book(page.request, omar, w1, blue);
  // Two days from the day after the cancellation period.
  await book(page.request, dan, addDays(periodEnds, 1), blue, 2);
  const tomsBooking = await waitForMail(tom.email, { since: bookedAt, subject: /^Your tree work is booked/ });

  // The board: opened from the navigation on this week, then next week.
  await page.clock.install();
  await page.goto('/jobs');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedule' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Schedule' })).toBeVisible();
  await page.getByRole('button', { name: 'Next week' }).click();
  const cell = (crewId: number | null, date: string) => page.getByTestId(`cell-${crewId ?? 'none'}-${date}`);
  const card = (job: Booked, date: string) => page.getByTestId(`booking-${job.reference}-${date}`);
  await expect(cell(blue, w0).getByTestId(`booking-${priya.reference}-${w0}`)).toBeVisible();

  // The wind at Priya's site passes the MEWP's limit and the climbing limit: said in words on Blue crew's day.
  await expect(cell(blue, w0)).toContainText(`Gusts to ${E2E_WEATHER.gustMs} m/s (34 mph) forecast; your MEWP's limit is 12.5 m/s; the climbing limit is 10.7 m/s`);
  await expect(cell(green, w0)).not.toContainText('Gusts');
  await expect(page.getByText('Weather forecast based on data from MET Norway')).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'schedule-board-1280');

  // By mouse: Tom's booking from Blue crew's first day to Green crew's third; the customer is e-mailed.
  await dragByMouse(page, page.getByRole('button', { name: `Drag ${tom.reference}, Tom Hale` }), cell(green, w2), `${tom.reference}, Tom Hale is over Green crew, ${dayWords(w2)}.`);
  const drop = page.getByRole('dialog', { name: 'E-mail Tom Hale the new date?' });
  await expect(drop).toContainText(`${tom.reference} moves from ${dayWords(w0)} to ${dayWords(w2)} and from Blue crew to Green crew.`);
  await keepScreenshot(page, 'schedule-drop-dialog-1280');
  const movedAt = Date.now();
  await drop.getByRole('button', { name: 'Move and e-mail' }).click();
  await expect(drop).toBeHidden();
  await expect(cell(green, w2).getByTestId(`booking-${tom.reference}-${w2}`)).toBeVisible();
  await expect(card(tom, w0)).toHaveCount(0);

  const moved = await waitForMail(tom.email, { since: movedAt, subject: /^New date for your tree work/ });
  expect(moved.mail.subject).toBe(`New date for your tree work: ${formatBookingDate(w2)} (${tom.reference})`);
  expect(moved.mail.text).toContain(`was ${formatBookingDate(w0)}, now ${formatBookingDate(w2)}`);
  const ics = (caught: typeof moved) => {
    const file = caught.mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
    expect(file, 'a calendar file is attached').toBeTruthy();
    return calendarEvents(file!.content.toString('utf8')).find((e) => !e.uid.includes('-visit@'))!;
  };
  const before = ics(tomsBooking);
  const after = ics(moved);
  expect(after.uid).toBe(before.uid);
  expect(after.sequence).toBe(before.sequence + 1);
  expect(after.start).toBe(`${w2}T08:00:00`);

  // By keyboard: Mina's booking picked up with Space, up to Blue crew, right a day, dropped with Space.
  const live = dragNews(page);
  const dayAfter = addDays(w0, 1);
  await page.getByRole('button', { name: `Drag ${mina.reference}, Mina Patel` }).focus();
  await page.keyboard.press('Space');
  // Picked up, it is over its own cell (what the live region says once the pick-up is announced).
  await expect(live).toHaveText(`${mina.reference}, Mina Patel is over Green crew, ${dayWords(w0)}.`);
  await page.keyboard.press('ArrowUp');
  await expect(live).toHaveText(`${mina.reference}, Mina Patel is over Blue crew, ${dayWords(w0)}.`);
  await page.keyboard.press('ArrowRight');
  await expect(live).toHaveText(`${mina.reference}, Mina Patel is over Blue crew, ${dayWords(dayAfter)}.`);
  await page.keyboard.press('Space');
  const keyed = page.getByRole('dialog', { name: 'E-mail Mina Patel the new date?' });
  await expect(keyed.getByRole('button', { name: 'Move and e-mail' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(keyed).toBeHidden();
  await expect(cell(blue, dayAfter).getByTestId(`booking-${mina.reference}-${dayAfter}`)).toBeVisible();
  await expect(card(mina, w0)).toHaveCount(0);

  // A rained-off day: Green crew's second day moves to its next working day.
  await cell(green, w1).getByRole('button', { name: `Postpone this day (Green crew, ${dayWords(w1)})` }).click();
  const postpone = page.getByRole('dialog', { name: `Postpone Green crew's day, ${dayWords(w1)}` });
  await postpone.getByRole('radio', { name: 'Rain' }).check();
  await keepScreenshot(page, 'schedule-postpone-dialog-1280');
  await holdClock(page);
  await postpone.getByRole('button', { name: 'Postpone the day' }).click();
  await expect(await heldToast(page, 'Day postponed')).toContainText(`${ellen.reference} moved to ${dayWords(w2)}`);
  await page.clock.resume();
  await expect(cell(green, w2).getByTestId(`booking-${ellen.reference}-${w2}`)).toBeVisible();
  await expect(card(ellen, w1)).toHaveCount(0);

  // A drop inside Dan's cancellation period is refused with its sentence; the card stays.
  const danFirst = addDays(periodEnds, 1);
  // Dragging day 1 back a day, or (when day 1 is a Monday, the week's first column) day 2 onto day 1's column.
  const [dragged, target] = isoWeekday(danFirst) === 1 ? [addDays(danFirst, 1), danFirst] : [danFirst, periodEnds];
  await page.goto(`/schedule?from=${dragged}`);
  await expect(card(dan, dragged)).toBeVisible();
  const dayLabel = dragged === danFirst ? 'day 1 of 2' : 'day 2 of 2';
  await dragByMouse(page, page.getByRole('button', { name: `Drag ${dan.reference}, Dan Frost, ${dayLabel}` }), cell(blue, target), `${dan.reference}, Dan Frost is over Blue crew, ${dayWords(target)}.`);
  const refusedDrop = page.getByRole('dialog', { name: 'E-mail Dan Frost the new date?' });
  await expect(refusedDrop).toContainText(`from ${dayWords(danFirst)} to ${dayWords(periodEnds)}`);
  await holdClock(page);
  await refusedDrop.getByRole('button', { name: 'Move and e-mail' }).click();
  const refusal = await heldToast(page, 'Not moved');
  await expect(refusal).toContainText(cancellationPeriodMessage({ lastDay: periodEnds, firstDay: danFirst }));
  await animationsSettled(page);
  await keepScreenshot(page, 'schedule-refused-drop-1280');
  await page.clock.resume();
  await expect(cell(blue, danFirst).getByTestId(`booking-${dan.reference}-${danFirst}`)).toBeVisible();
  await expect(cell(blue, addDays(danFirst, 1)).getByTestId(`booking-${dan.reference}-${addDays(danFirst, 1)}`)).toBeVisible();

  // At 390 px: the same week as a list by day, each booking with its crew, nothing wider than the phone.
  await page.setViewportSize(PHONE);
  await page.goto(`/schedule?from=${w0}`);
  const days = page.getByRole('heading', { level: 2 });
  for (const date of week) await expect(days.filter({ hasText: longDayWords(date) })).toBeVisible();
  const dayOf = (date: string) => page.getByRole('region', { name: new RegExp(`^${longDayWords(date)}`) });
  await expect(dayOf(w1).getByTestId(`booking-${omar.reference}-${w1}`)).toContainText('Blue crew');
  await expect(dayOf(w2).getByTestId(`booking-${tom.reference}-${w2}`)).toContainText('Green crew');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'schedule-list-390');

  // The Move form: Omar's booking to Green crew on the third day.
  await page.getByRole('button', { name: `Move ${omar.reference}` }).click();
  const form = page.getByRole('dialog', { name: `Move ${omar.reference}` });
  await form.getByRole('textbox', { name: 'Date', exact: true }).fill(w2);
  await form.getByLabel('Crew', { exact: true }).selectOption({ label: 'Green crew' });
  await expect(form.getByRole('checkbox', { name: 'E-mail Omar Reid the new date' })).toBeChecked();
  await keepScreenshot(page, 'schedule-move-dialog-390');
  await form.getByRole('button', { name: 'Move the booking' }).click();
  await expect(form).toBeHidden();
  await expect(dayOf(w2).getByTestId(`booking-${omar.reference}-${w2}`)).toContainText('Green crew');
  await expect(dayOf(w1).getByTestId(`booking-${omar.reference}-${w1}`)).toHaveCount(0);

  await dayOf(w2).getByRole('button', { name: `Postpone this day (Green crew, ${longDayWords(w2)})` }).click();
  const phonePostpone = page.getByRole('dialog', { name: `Postpone Green crew's day, ${dayWords(w2)}` });
  await expect(phonePostpone.getByRole('radio', { name: 'Rain' })).toBeVisible();
  await keepScreenshot(page, 'schedule-postpone-dialog-390');
  await phonePostpone.getByRole('button', { name: 'Keep the day' }).click();
  await expect(phonePostpone).toBeHidden();

  await page.goto('/settings#crews');
  await expect(page.getByRole('region', { name: 'Crews' }).getByRole('list', { name: 'Crews' })).toContainText('Green crew');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await keepScreenshot(page, 'schedule-settings-crews-390');
});
