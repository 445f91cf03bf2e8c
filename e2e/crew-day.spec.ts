import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { ukToday } from '../core/job-booking';
import type { Job } from '../core/jobs';
import { CREW_API_CACHE } from '../dashboard/api/saved-answers';
import { ok } from './api-answer';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import { signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * The crew's day in a real Chromium (docs/product.md, The crew's day): a job booked today to a
 * crew of two. Sam opens My days on his phone (390 px) with signal, so the service worker keeps the
 * app and the day's sheets; without signal he fills the site check, signs it, starts, pauses and
 * stops the timer, takes an after photo and finishes, and the status line says what waits. With
 * signal again, his check and signature go; his start waits for the second signature, which Lee
 * gives from his own phone with his own sign-in; then everything else goes, in order. The office
 * (1280 px) reads the check, the time on site, the photo and "Done" on the job page, and the
 * customer has the "Work finished" e-mail with the photo.
 *
 * The server runs on the real clock, so the job is booked today. Sam's phone clock runs from a
 * little earlier today (page.clock) and is moved on between his taps, so the timer has minutes to
 * report; every tap stays in the past, as the server requires.
 */

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 1000 };
const origin = () => ({ Origin: e2eEnv('baseURL') });
const TEAM_NAME = 'Rowan & Birch Tree Surgery';
const AFTER_PHOTO = fileURLToPath(new URL('./fixtures/photos/elm-open-ground.jpg', import.meta.url));
const MINUTE = 60_000;

interface Phone {
  context: BrowserContext;
  page: Page;
}

/** A crew member's phone: invited by the owner, joined from the e-mail's link in its own browser context (signed in there). */
async function crewPhone(browser: Browser, owner: Page, name: string, email: string): Promise<Phone> {
  const since = Date.now();
  await ok(owner.request.post('/api/team/invitations', { data: { email, name, role: 'crew' }, headers: origin() }), 201);
  const { mail } = await waitForMail(email, { since, subject: /^Join / });
  const token = /\/join\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
  expect(token, mail.text).toBeTruthy();
  const context = await browser.newContext({ baseURL: e2eEnv('baseURL'), viewport: PHONE, hasTouch: true });
  await ok(context.request.post('/api/team/join', { data: { token, name, password: `crew-pass-${Date.now()}` }, headers: origin() }), 201);
  return { context, page: await context.newPage() };
}

/** A consumer's one-line job at a Leeds site, sent, and accepted with the early start asked for (so it may be booked today). */
async function acceptedJob(request: APIRequestContext, name: string, email: string): Promise<{ id: number; reference: string }> {
  const { job } = await ok<{ job: Job }>(request.post('/api/jobs', { data: { customer: { name, email, siteAddress: '14 Cardigan Road, Leeds LS6 2AB', phone: '07700 900123' } }, headers: origin() }), 201);
  await ok(request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Fell the leaning sycamore by the wall and grind the stump', price: '900' }, headers: origin() }), 201);
  const sentAt = Date.now();
  await ok(request.post(`/api/jobs/${job.id}/send`, { data: {}, headers: origin() }));
  const token = /\/quote\/([A-Za-z0-9_-]{43})/.exec((await waitForMail(email, { since: sentAt, subject: /^Your quote from / })).mail.text ?? '')?.[1];
  expect(token, `the quote link to ${email}`).toBeTruthy();
  await ok(request.post(`/api/quotes/${token}/accept`, { data: { name, acceptTerms: true, optionalItemIds: [], startWithinCancellationPeriod: true }, headers: origin() }));
  return { id: job.id, reference: job.reference };
}

/** Milliseconds since midnight, UK time. */
function sinceUkMidnight(now: number): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return ((Number(parts.hour) * 60 + Number(parts.minute)) * 60 + Number(parts.second)) * 1000;
}

test('the crew’s day on a phone without signal: the site check, two signatures, the timer, an after photo and the finish reach the office and the customer', async ({ page, browser }) => {
  // The office: a team with a name, a list of A&E departments, two crew members in one crew.
  await page.setViewportSize(WIDE);
  const owner = await signedInAccount(page);
  const tag = owner.username;
  await ok(page.request.patch('/api/system-settings', { data: { companyProfile: { tradingName: TEAM_NAME, phone: '0113 496 0111', email: 'office@rowan-birch.example', address: '5 Kirkstall Road\nLeeds', vatNumber: '', quoteValidityDays: 30 } }, headers: origin() }));
  await ok(
    page.request.patch('/api/system-settings', {
      data: {
        hospitals: [
          { name: 'Leeds General Infirmary', postcode: 'LS1 3EX' },
          { name: 'St James’s University Hospital', postcode: 'LS9 7TF' },
          { name: 'Bristol Royal Infirmary', postcode: 'BS2 8HW' },
        ],
      },
      headers: origin(),
    }),
  );
  const customerEmail = `ruth-${tag}@example.test`;
  const [sam, lee, job] = await Promise.all([
    crewPhone(browser, page, 'Sam Field', `sam-${tag}@example.test`),
    crewPhone(browser, page, 'Lee Hart', `lee-${tag}@example.test`),
    acceptedJob(page.request, 'Ruth Ashby', customerEmail),
  ]);
  const { people } = await ok<{ people: { id: number; name: string }[] }>(page.request.get('/api/crews'));
  const memberIds = ['Sam Field', 'Lee Hart'].map((name) => people.find((p) => p.name === name)!.id);
  const { crew } = await ok<{ crew: { id: number } }>(page.request.post('/api/crews', { data: { name: 'Red crew', colour: '#b91c1c', memberIds }, headers: origin() }), 201);
  const today = ukToday(new Date());
  await ok(page.request.post(`/api/jobs/${job.id}/book`, { data: { date: today, startTime: '08:00', days: 1, crewId: crew.id }, headers: origin() }));

  // Sam's phone clock: from up to 75 minutes ago, never before today's UK midnight.
  const now = Date.now();
  const span = Math.min(75 * MINUTE, sinceUkMidnight(now) - 2 * MINUTE);
  const worked = Math.floor((span * 0.6) / MINUTE) * MINUTE;
  await sam.page.clock.install({ time: now - span });

  // My days comes drawn in the page (docs/performance.md, The crew's phone): with no script at all,
  // Sam's phone shows today's job, and its link opens the sheet's address.
  const noScript = await browser.newContext({ baseURL: e2eEnv('baseURL'), viewport: PHONE, hasTouch: true, javaScriptEnabled: false, storageState: await sam.context.storageState() });
  const firstView = await noScript.newPage();
  await firstView.goto('/my-days');
  await expect(firstView.getByRole('heading', { level: 1, name: 'My days' })).toBeVisible();
  await expect(firstView.getByTestId('signed-in-as')).toHaveText('Sam Field · Crew');
  await expect(firstView.getByTestId('my-day-booking')).toContainText('Ruth Ashby');
  await keepScreenshot(firstView, 'crew-my-days-first-view-390');
  await firstView.getByTestId('my-day-booking').click();
  await expect(firstView).toHaveURL(`/my-days/jobs/${job.id}`);
  await noScript.close();

  // My days, with signal: today's job; the service worker takes the page over and keeps the sheet.
  const phone = sam.page;
  await phone.goto('/my-days');
  const booking = phone.getByTestId('my-day-booking');
  await expect(booking).toContainText('Ruth Ashby');
  await expect(booking).toContainText(job.reference);
  await expect(phone.getByTestId('my-days').getByRole('heading', { level: 2 })).toHaveText(/^Today, /);
  await expect.poll(() => phone.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const kept = (path: string) => phone.evaluate(async ([cache, p]) => (await (await caches.open(cache)).match(p)) !== undefined, [CREW_API_CACHE, path] as const);
  await expect.poll(() => kept(`/api/jobs/${job.id}/photos`)).toBe(true);
  await expectNoSeriousAxeViolations(phone);
  await keepScreenshot(phone, 'crew-my-days-390');

  // No signal from here: the sheet opens from the phone.
  await sam.context.setOffline(true);
  const status = phone.getByTestId('outbox-status');
  await expect(status).toHaveText('No signal: changes you make are kept on this phone.');
  await booking.click();
  const sheet = phone.getByTestId('job-sheet');
  await expect(sheet.getByRole('heading', { name: 'The site' })).toBeVisible();
  await expect(sheet).toContainText('Fell the leaning sycamore by the wall and grind the stump');
  await expect(sheet).not.toContainText('£');

  // The site check: two hazards found with their controls, the others not; the emergency plan.
  const check = phone.getByTestId('site-check');
  const present: Record<string, string> = {
    roads_public: 'Cones and signs on the pavement; a banksman stops people while the stem comes down.',
    buildings: 'The stem is lowered in sections on a rope away from the garden wall.',
  };
  for (const key of ['overhead_lines', 'roads_public', 'buildings', 'ground', 'other_trees', 'weather', 'wildlife', 'underground', 'other']) {
    const hazard = check.getByTestId(`hazard-${key}`);
    await hazard.getByText(present[key] ? 'Yes' : 'No', { exact: true }).click();
    await expect(hazard.getByRole('radio', { name: present[key] ? 'Yes' : 'No' })).toBeChecked();
    if (present[key]) await hazard.getByRole('textbox', { name: /^How it is controlled: / }).fill(present[key]);
  }
  await check.getByLabel('Meeting point').fill('The front gate on Cardigan Road');
  await check.getByLabel('Vehicle access for an ambulance').fill('Straight up the drive from Cardigan Road; the van parks on the street');
  await check.getByLabel('Aerial rescuer').selectOption({ label: 'Lee Hart' });
  await check.getByRole('button', { name: 'Save the check' }).click();
  await expect(check.getByRole('status')).toHaveText('Check saved on this phone: it is sent when there is signal.');
  await expect(status).toHaveText('1 change waiting to send: no signal, they are kept on this phone');
  await check.getByRole('button', { name: 'Sign the check' }).click();
  await expect(check.getByRole('button', { name: 'You have signed the check' })).toBeDisabled();
  await expect(check.getByTestId('signatures')).toHaveText('Sam Field (waiting to send)');
  await keepScreenshot(phone, 'crew-site-check-offline-390');

  // The timer: started, paused after a while, stopped; the phone's clock moves between the taps.
  const work = phone.getByTestId('work');
  const timer = work.getByTestId('timer');
  await work.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(timer).toContainText('Running');
  await phone.clock.fastForward(worked);
  await work.getByRole('button', { name: 'Pause' }).click();
  await expect(timer).toContainText('Paused');
  await expect(timer).toContainText(`${worked / MINUTE} min`);
  await phone.clock.fastForward(5 * MINUTE);
  await work.getByRole('button', { name: 'Stop' }).click();
  await expect(timer).toContainText('Stopped');

  // An after photo, then the finish with a note for the office.
  await phone.getByTestId('photo-input-after').setInputFiles(AFTER_PHOTO);
  await expect(phone.getByTestId('photos').getByRole('img', { name: 'After photo waiting to send' })).toBeVisible();
  await work.getByRole('button', { name: 'Finish the job' }).click();
  await work.getByLabel('A note for the office (optional)').fill('Stump ground out and the hole filled with topsoil.');
  await work.getByRole('button', { name: 'Finish the job' }).click();
  await expect(work).toContainText('Finished: waiting to send.');
  await expect(status).toHaveText('7 changes waiting to send: no signal, they are kept on this phone');
  await expect(phone.getByRole('button', { name: 'Send now' })).toBeVisible();
  await expectNoSeriousAxeViolations(phone);
  await keepScreenshot(phone, 'crew-sheet-offline-390');

  // Signal again: the check and Sam's signature go; his start waits for a second signature.
  await sam.context.setOffline(false);
  await phone.getByRole('button', { name: 'Send now' }).click();
  await expect(status).toHaveText('5 changes waiting to send: the start waits until the site check is complete and signed');
  const held = work.getByTestId('start-refused');
  await expect(held).toContainText('The site check must be complete and signed by everyone on site before work starts.');
  await expect(phone.getByTestId('not-sent')).toHaveCount(0);
  await keepScreenshot(phone, 'crew-start-held-390');

  // Lee signs on his own phone, with his own sign-in.
  await lee.page.goto(`/my-days/jobs/${job.id}`);
  const leesCheck = lee.page.getByTestId('site-check');
  await expect(leesCheck.getByTestId('signatures')).toContainText('Sam Field, ');
  await leesCheck.getByRole('button', { name: 'Sign the check' }).click();
  await expect(leesCheck).toContainText('Complete and signed.');
  await expect(lee.page.getByTestId('outbox-status')).toHaveText('Sent: every change is with the office.');

  // Sam sends the rest: the start, the pause, the stop, the photo and the finish, in order. The
  // outbox also tries again by itself every few seconds while changes wait, so "Send now" may have
  // gone with the last of them already: it is pressed if it is still there (in one step in the
  // page, never a click on a button that is leaving).
  await phone.getByRole('button', { name: 'Send now' }).evaluateAll((buttons) => buttons.forEach((b) => (b as HTMLButtonElement).click()));
  await expect(status).toHaveText('Sent: every change is with the office.');
  await expect(work).toContainText('This job is done.');
  await expect(check).toContainText('Complete and signed.');
  await expect(check.getByTestId('signatures').getByRole('listitem')).toHaveText([/^Sam Field, /, /^Lee Hart, /]);
  await expect(check.getByTestId('nearest-hospital')).toContainText('Nearest A&E: Leeds General Infirmary, LS1 3EX');
  await expect(phone.getByTestId('photos').getByRole('img', { name: 'After photo by Sam Field' })).toBeVisible();

  // The office at 1280 px: the check, the time on site, the photo and "Done".
  const { job: done } = await ok<{ job: Job }>(page.request.get(`/api/jobs/${job.id}`));
  expect(done.status).toBe('done');
  expect(done.work?.minutesOnSite).toBe(worked / MINUTE);
  await page.goto(`/jobs/${job.id}`);
  const onSite = page.getByRole('region', { name: 'On site' });
  await expect(onSite.getByText('Done', { exact: true })).toBeVisible();
  await expect(onSite).toContainText('Finished by Sam Field on ');
  await expect(onSite).toContainText(`${worked / MINUTE} min`);
  await expect(onSite).toContainText('Complete and signed');
  await expect(onSite).toContainText('Leeds General Infirmary');
  await expect(onSite).toContainText('Roads and the public');
  await expect(onSite).toContainText("The crew's note: Stump ground out and the hole filled with topsoil.");
  await expect(onSite.getByRole('link', { name: 'Download the site check (PDF)' })).toBeVisible();
  const photo = onSite.getByRole('img', { name: /^After photo, taken by Sam Field on / });
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await onSite.scrollIntoViewIfNeeded();
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'crew-office-on-site-1280');

  // The customer's "Work finished" e-mail, with the after photo.
  const finished = await waitForMail(customerEmail, { since: now, subject: /^Your tree work is finished/ });
  expect(finished.mail.subject).toBe(`Your tree work is finished (${job.reference})`);
  expect(finished.mail.text).toContain(`${TEAM_NAME} has finished your tree work at 14 Cardigan Road, Leeds LS6 2AB`);
  expect(finished.mail.text).toContain('A photo of the finished work is attached.');
  expect(finished.mail.text).not.toContain('£');
  expect(finished.mail.attachments.filter((a) => a.contentType === 'image/jpeg')).toHaveLength(1);

  await Promise.all([sam.context.close(), lee.context.close()]);
});
