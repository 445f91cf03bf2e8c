import { afterAll } from 'vitest';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer } from '../../testing/harness';
import { runCommonRouteTests } from '../../testing/route-guards';
import { acceptQuote, sentLinesJob } from '../../testing/quote-links';
import { eq } from 'drizzle-orm';
import { cardPaymentProblems, mailOutbox, users } from '../../db/schema';

/*
 * Every signed-in and admin route, read from the app itself: 401 signed out, 403 for a user on
 * an admin route, 404 for another user's analysis, business or lead. The route list is known
 * when the tests are collected, so the server starts here rather than in beforeAll.
 */
const server = await startTestServer();
afterAll(() => server.close());

runCommonRouteTests({
  server,
  publicRoutes: {
    'POST /api/auth/register': 'signing up',
    'POST /api/auth/login': 'signing in',
    'POST /api/auth/logout': 'signing out answers the same with or without a session',
    'POST /api/auth/forgot-password': 'asked for by someone who cannot sign in',
    'POST /api/auth/reset-password': 'the e-mailed token is the credential',
    'POST /api/stripe/webhook': "Stripe's call, checked by its signature",
    'GET /api/businesses/:slug{[a-z0-9-]+}': "a business's estimator, read by any visitor",
    'POST /api/businesses/:slug{[a-z0-9-]+}/events': "the estimator's funnel, sent by any visitor",
    'POST /api/businesses/:slug{[a-z0-9-]+}/leads': "a visitor's quote request",
    'GET /api/businesses/:slug{[a-z0-9-]+}/site-note': "the request screen's note under a visitor's postcode",
    'POST /api/analyze-tree': "a visitor's analysis names its business; without one it needs a session (analysis.security.test.ts)",
    'GET /api/capabilities': 'what the sign-in pages say about where estimates come from',
    'POST /api/chatbot': 'the help assistant, on the public pages too',
    'GET /api/openapi.json': 'the public embed API, documented',
    'GET /api/quotes/:token': "a customer's quote, by the link's 256-bit token (quotes.test.ts)",
    'GET /api/quotes/:token/quote.pdf': "the customer's quote as a PDF, by the same link's token and checks (quotes.pdf.test.ts)",
    'POST /api/quotes/:token/accept': 'the customer accepts by the link; the token is the credential',
    'POST /api/quotes/:token/decline': 'the customer declines by the link',
    'POST /api/quotes/:token/changes': 'the customer asks for a change by the link',
    'POST /api/quotes/:token/cancel': 'the consumer cancels an accepted agreement by the link within 14 days (quotes.cancel.test.ts)',
    'GET /api/invoice-links/:token': "a customer's invoice, by its link's 256-bit token (invoices.links.test.ts)",
    'GET /api/invoice-links/:token/invoice.pdf': "the customer's invoice as a PDF, by the same link's token and checks",
    'GET /api/invoice-links/:token/credit-notes/:creditNoteId{[0-9]+}/credit-note.pdf': "one of the invoice's credit notes as a PDF, by the same link's token and checks (invoices.credit-notes.test.ts)",
    'POST /api/invoice-links/:token/checkout': "the customer pays their invoice by card, by the same link's token (card-payments.demo.test.ts)",
    'GET /api/team/invitations/:token{[A-Za-z0-9_-]{1,128}}': 'the join page reads an invitation by its 256-bit token (team.security.test.ts)',
    'GET /api/team/invitations/:token{[A-Za-z0-9_-]{1,128}}/logo': "the team's logo on the join page, by the same open link",
    'POST /api/team/join': "the invited person joins by the link's token, before they have a sign-in",
    'POST /api/card-payments/webhook': "Stripe's card payment events, checked by the endpoint's signature (card-payments.stripe.test.ts)",
  },
  async seed() {
    const { client: owner, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    const business = await createBusinessFor(owner);
    const estimate = (await (await visitorAnalyze(server, business.slug)).json()) as { analysis: { id: number }; leadToken: string };
    const lead = await visitorLead(server, business.slug, { analysisId: estimate.analysis.id, leadToken: estimate.leadToken, name: 'Jo', phone: '07700 900123' });
    if (lead.status !== 201) throw new Error(`lead: ${lead.status} ${await lead.text()}`);
    const leads = (await (await owner.get(`/api/businesses/${business.id}/leads`)).json()) as { leads: { id: number }[] };
    const job = await owner.post('/api/jobs', { leadId: leads.leads[0]!.id });
    if (job.status !== 201) throw new Error(`job: ${job.status} ${await job.text()}`);
    // An accepted quote's issued invoice with a payment, for the invoice routes.
    const quoted = await sentLinesJob(server, owner, { name: 'Alex Customer', email: 'alex@example.com' }, [{ description: 'Fell the ash', price: '500' }]);
    if ((await acceptQuote(server, quoted.token)).status !== 200) throw new Error('accept failed');
    const made = await owner.post(`/api/jobs/${quoted.job.id}/invoices`, { kind: 'final' });
    const invoiceId = ((await made.json()) as { invoice: { id: number } }).invoice.id;
    await owner.post(`/api/invoices/${invoiceId}/issue`);
    const paid = await owner.post(`/api/invoices/${invoiceId}/payments`, { amount: '10', paidOn: '2026-06-01', method: 'cash' });
    const paymentId = ((await paid.json()) as { invoice: { payments: { id: number }[] } }).invoice.payments[0]!.id;
    // A card payment that needs a refund, as a bad event leaves one (card-payments/events.ts).
    const problem = server.db
      .insert(cardPaymentProblems)
      .values({ userId: server.db.select().from(users).where(eq(users.username, account.username)).get()!.id, invoiceId, eventId: 'evt_seed', amountPence: 1000, currency: 'gbp', reason: 'wrong_amount', createdAt: new Date() })
      .returning()
      .get();
    // An invitation of the owner's team, for the team's id routes (invitations and members alike).
    const invited = await owner.post('/api/team/invitations', { email: 'invited@example.com', name: 'Invited', role: 'crew' });
    const invitationId = ((await invited.json()) as { invitation: { id: number } }).invitation.id;
    // A crew of the owner's team, for the crews' id routes.
    const team = (await (await owner.get('/api/team')).json()) as { members: { id: number }[] };
    const crewMade = await owner.post('/api/crews', { name: 'Seed crew', memberIds: [team.members[0]!.id] });
    if (crewMade.status !== 201) throw new Error(`crew: ${crewMade.status} ${await crewMade.text()}`);
    const crewId = ((await crewMade.json()) as { crew: { id: number } }).crew.id;
    const { client: stranger } = await registerClient(server);
    return {
      stranger,
      othersResources: {
        analysis: { id: String(estimate.analysis.id) },
        businesses: { id: String(business.id), leadId: String(leads.leads[0]!.id) },
        jobs: { id: String(((await job.json()) as { job: { id: number } }).job.id) },
        invoices: { id: String(invoiceId), paymentId: String(paymentId) },
        'card-payment-problems': { id: String(problem.id) },
        team: { id: String(invitationId) },
        crews: { id: String(crewId) },
        // The owner's quote e-mail, as the outbox keeps it (server/mail/outbox.ts).
        'mail-outbox': { id: String(server.db.select().from(mailOutbox).where(eq(mailOutbox.userId, problem.userId!)).get()!.id) },
      },
    };
  },
});
