import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardProblemListSchema } from '../../core/card-payments';
import { RateLimits } from '../http/rate-limit';
import type { FakeStripe } from '../../testing/fake-stripe';
import { CARD_WEBHOOK_SECRET, cardOwner, deliverCardEvent, outcomeOf, paidDeposit } from '../../testing/card-payments';
import { invoiceOf } from '../../testing/invoices';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { sentLinesJob } from '../../testing/quote-links';
import { startServerWithFakeStripe } from '../../testing/stripe-server';

/*
 * Stripe is the truth for card money (docs/payments.md, Webhooks: refunds and disputes): a
 * refund made anywhere (the business's Stripe dashboard, or this app) and a dispute reach the
 * invoice through signed events to the real webhook, each applied once however often and in
 * whatever order Stripe delivers them, on a connected account or the install's own.
 */
const KEYS = { secretKey: 'sk_test_card_refunds', publishableKey: 'pk_test_card_refunds', webhookSecret: 'whsec_billing' };
let server: TestServer;
let stripe: FakeStripe;

beforeAll(async () => {
  ({ server, stripe } = await startServerWithFakeStripe(
    KEYS,
    { STRIPE_CONNECT_WEBHOOK_SECRET: CARD_WEBHOOK_SECRET },
    { rateLimits: new RateLimits({ registrationsPerAddress: { points: 100, windowSeconds: 3600 } }) },
  ));
});
afterAll(async () => {
  await server.close();
  await stripe.close();
});

const invoice = async (owner: TestClient, id: number) => invoiceOf(await owner.get(`/api/invoices/${id}`));
const outbox = (): string[] => outboxMessages(server.dataDir).map((m) => m.text);

describe('charge.refunded: a refund made in the Stripe dashboard', () => {
  it('is recorded with its credit note once, from the cumulative amount, in any order, and the app offers only what is left', async () => {
    const { owner, account } = await cardOwner(server, stripe);
    const paid = await paidDeposit(server, stripe, owner, '1200');
    expect(paid.charge.account).toBe(account);

    // £30 back from the dashboard; the event does not carry the refunds (Stripe's since 2022-11-15): they are read from Stripe.
    const first = stripe.refundCharge(paid.charge.id, { amount: 3000, reason: 'requested_by_customer' });
    const firstEvent = stripe.chargeRefundedEvent(paid.charge.id);
    expect(firstEvent).toMatchObject({ account, data: { object: { amount_refunded: 3000 } } });
    expect(firstEvent.data.object).not.toHaveProperty('refunds');
    expect(await outcomeOf(await deliverCardEvent(server, firstEvent))).toBe('refund_recorded');
    const once = await invoice(owner, paid.invoiceId);
    expect(once).toMatchObject({ status: 'paid', paid: '90.00', credited: '30.00', owed: '0.00' });
    expect(once.refunds).toMatchObject([{ amount: '30.00', providerRefundId: first.id, reason: 'Refunded in Stripe (requested by the customer)', creditNoteNumber: expect.stringMatching(/^CN-/) }]);
    expect(once.creditNotes.map((note) => note.gross)).toEqual(['30.00']);
    // The refund button offers only what is left; the list read the connected account's refunds.
    expect(once.payments[0]).toMatchObject({ refunded: '30.00', refundable: '90.00' });
    expect(stripe.requests.some((r) => r.method === 'GET' && r.path === '/v1/refunds' && r.params.charge === paid.charge.id && r.stripeAccount === account)).toBe(true);

    // The customer is told what went back, to which card, with the credit note: once.
    await mailSettled(server);
    const refundMails = () => outbox().filter((m) => addressedTo(m, paid.email) && m.includes('has refunded £30.00'));
    expect(refundMails()).toHaveLength(1);
    expect(refundMails()[0]).toContain('has refunded £30.00 to your Visa card ending 4242');
    expect(refundMails()[0]).toContain(`credit note ${once.refunds[0]!.creditNoteNumber}`);
    expect(refundMails()[0]).toMatch(/filename="?credit-note-CN-[0-9]+\.pdf/);

    // Delivered again: nothing more, and nobody is told again.
    expect(await outcomeOf(await deliverCardEvent(server, firstEvent))).toBe('duplicate');
    await mailSettled(server);
    expect(refundMails()).toHaveLength(1);

    // Two more refunds (£20, then the last £70); their events arrive newest first.
    stripe.refundCharge(paid.charge.id, { amount: 2000 });
    const middle = stripe.chargeRefundedEvent(paid.charge.id);
    stripe.refundCharge(paid.charge.id);
    const last = stripe.chargeRefundedEvent(paid.charge.id, { withRefunds: true });
    expect(await outcomeOf(await deliverCardEvent(server, last))).toBe('refund_recorded');
    expect(await outcomeOf(await deliverCardEvent(server, middle))).toBe('duplicate');
    const all = await invoice(owner, paid.invoiceId);
    expect(all).toMatchObject({ status: 'credited', paid: '0.00', credited: '120.00', owed: '0.00' });
    expect(all.refunds.map((r) => [r.amount, r.reason])).toEqual([
      ['30.00', 'Refunded in Stripe (requested by the customer)'],
      ['20.00', 'Refunded in Stripe'],
      ['70.00', 'Refunded in Stripe'],
    ]);
    expect(all.creditNotes.map((note) => note.gross)).toEqual(['30.00', '20.00', '70.00']);

    // Nothing is left to refund here or to credit.
    const refund = await owner.post(`/api/invoices/${paid.invoiceId}/payments/${paid.paymentId}/refund`, { reason: 'Again' });
    expect(refund.status).toBe(409);
    expect((await owner.post(`/api/invoices/${paid.invoiceId}/credit-notes`, { reason: 'Again' })).status).toBe(409);
  });

  it('the app’s own refund is recorded once: its event finds it already there, and a dashboard refund beside it is added by its id', async () => {
    const { owner } = await cardOwner(server, stripe);
    const paid = await paidDeposit(server, stripe, owner, '500');
    await invoiceOf(await owner.post(`/api/invoices/${paid.invoiceId}/payments/${paid.paymentId}/refund`, { amount: '10', reason: 'Hedge left' }));
    expect(await outcomeOf(await deliverCardEvent(server, stripe.chargeRefundedEvent(paid.charge.id)))).toBe('duplicate');
    stripe.refundCharge(paid.charge.id, { amount: 1500, reason: 'duplicate' });
    expect(await outcomeOf(await deliverCardEvent(server, stripe.chargeRefundedEvent(paid.charge.id, { withRefunds: true })))).toBe('refund_recorded');
    const after = await invoice(owner, paid.invoiceId);
    expect(after.refunds.map((r) => [r.amount, r.reason])).toEqual([
      ['10.00', 'Hedge left'],
      ['15.00', 'Refunded in Stripe (a duplicate payment)'],
    ]);
    expect(after).toMatchObject({ paid: '25.00', credited: '25.00' });
    expect(after.payments[0]!.refundable).toBe('25.00');
    // One e-mail for each refund, whoever made it.
    await mailSettled(server);
    const told = outbox().filter((m) => addressedTo(m, paid.email) && m.includes('has refunded'));
    expect(told.map((m) => /has refunded (£[\d.]+)/.exec(m)?.[1]).sort()).toEqual(['£10.00', '£15.00']);
  });

  it('the app’s own refund whose event lands before the app records it: recorded once, by its id, with the reason typed', async () => {
    const { owner } = await cardOwner(server, stripe);
    const paid = await paidDeposit(server, stripe, owner, '900');
    const hold = stripe.holdNextAnswer(/^\/v1\/refunds$/);
    const asked = owner.post(`/api/invoices/${paid.invoiceId}/payments/${paid.paymentId}/refund`, { amount: '25', reason: 'Gate post left standing' });
    await hold.done;
    // Stripe made the refund and sent its event before its answer reached the app.
    expect(await outcomeOf(await deliverCardEvent(server, stripe.chargeRefundedEvent(paid.charge.id)))).toBe('refund_recorded');
    hold.release();
    const after = await invoiceOf(await asked);
    expect(after.refunds.map((r) => [r.amount, r.reason])).toEqual([['25.00', 'Gate post left standing']]);
    expect(after.creditNotes).toHaveLength(1);
    expect(after).toMatchObject({ paid: '65.00', credited: '25.00' });
    // Recorded first from the event, which told the customer; the app's answer tells nobody again.
    await mailSettled(server);
    expect(outbox().filter((m) => addressedTo(m, paid.email) && m.includes('has refunded £25.00'))).toHaveLength(1);
  });

  it('an event from another connected account, a wrong signature, or a Stripe that cannot list the refunds records nothing', async () => {
    const { owner } = await cardOwner(server, stripe);
    const paid = await paidDeposit(server, stripe, owner, '400');
    stripe.refundCharge(paid.charge.id, { amount: 1000 });
    expect(await outcomeOf(await deliverCardEvent(server, stripe.chargeRefundedEvent(paid.charge.id, { account: 'acct_someone_else' })))).toBe('ignored');
    expect((await deliverCardEvent(server, stripe.chargeRefundedEvent(paid.charge.id), 'whsec_not_stripe')).status).toBe(400);
    // Stripe down when asked for the refunds: a 502, so Stripe delivers it again; then it is recorded.
    const event = stripe.chargeRefundedEvent(paid.charge.id);
    stripe.failNextRequest({ status: 500, message: 'Stripe is down' }, { path: /^\/v1\/refunds$/ });
    expect((await deliverCardEvent(server, event)).status).toBe(502);
    expect((await invoice(owner, paid.invoiceId)).refunds).toEqual([]);
    expect(await outcomeOf(await deliverCardEvent(server, event))).toBe('refund_recorded');
    expect((await invoice(owner, paid.invoiceId)).refunds.map((r) => r.amount)).toEqual(['10.00']);
  });

  it('a refund in Stripe of a payment kept as needing one marks it dealt with', async () => {
    const { owner } = await cardOwner(server, stripe);
    const { token } = await sentLinesJob(server, owner, { name: 'Hazel Customer', email: 'hazel.problem@example.com' }, [{ description: 'Pollard the willow', price: '300' }]);
    const accepted = await fetch(`${server.url}/api/quotes/${token}/accept`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.origin }, body: JSON.stringify({ name: 'Hazel Customer', acceptTerms: true }) });
    const { deposit } = (await accepted.json()) as { deposit: { payUrl: string } };
    const record = [...stripe.state.checkoutSessions.values()].find((r) => r.session.url === deposit.payUrl)!;
    // The customer paid 5p instead of £30.00: kept as a payment to refund.
    const session = stripe.completeCheckout(record.session.id, { amount: 5 });
    expect(await outcomeOf(await deliverCardEvent(server, stripe.checkoutCompletedEvent(record.session.id)))).toBe('needs_refund');
    const charge = stripe.chargeOf(session.payment_intent!);
    stripe.refundCharge(charge.id);
    expect(await outcomeOf(await deliverCardEvent(server, stripe.chargeRefundedEvent(charge.id)))).toBe('problem_refunded');
    const { problems } = cardProblemListSchema.parse(await (await owner.get('/api/card-payment-problems')).json());
    expect(problems).toMatchObject([{ reason: 'wrong_amount', amount: '0.05', resolvedNote: 'Refunded in Stripe', resolvedAt: expect.any(String) }]);
  });

  it('on the install’s own account (CARD_PAYMENTS=own) the event has no account, and one from a connected account is not this install’s', async () => {
    const own = await startTestServer({
      STRIPE_SECRET_KEY: KEYS.secretKey,
      STRIPE_PUBLISHABLE_KEY: KEYS.publishableKey,
      STRIPE_WEBHOOK_SECRET: KEYS.webhookSecret,
      STRIPE_API_BASE: stripe.apiBase,
      STRIPE_CONNECT_WEBHOOK_SECRET: CARD_WEBHOOK_SECRET,
      CARD_PAYMENTS: 'own',
    });
    try {
      const { owner } = await cardOwner(own, stripe, false);
      const paid = await paidDeposit(own, stripe, owner, '300');
      expect(paid.charge.account).toBeNull();
      stripe.refundCharge(paid.charge.id, { amount: 1200 });
      expect(await outcomeOf(await deliverCardEvent(own, stripe.chargeRefundedEvent(paid.charge.id, { account: 'acct_elsewhere' })))).toBe('ignored');
      const event = stripe.chargeRefundedEvent(paid.charge.id);
      expect(event).not.toHaveProperty('account');
      expect(await outcomeOf(await deliverCardEvent(own, event))).toBe('refund_recorded');
      const after = await invoiceOf(await owner.get(`/api/invoices/${paid.invoiceId}`));
      expect(after).toMatchObject({ paid: '18.00', credited: '12.00' });
      expect(after.refunds[0]).toMatchObject({ amount: '12.00', reason: 'Refunded in Stripe' });
    } finally {
      await own.close();
    }
  });
});

describe('disputes', () => {
  // 8 June 2026 at 23:59 in London (BST).
  const dueBy = Date.UTC(2026, 5, 8, 22, 59) / 1000;

  it('created marks the payment disputed and tells the owner what to do by when; closed won puts it back to normal', async () => {
    const { owner, account } = await cardOwner(server, stripe);
    const paid = await paidDeposit(server, stripe, owner, '800');
    const dispute = stripe.openDispute(paid.charge.id, { reason: 'product_not_received', dueBy });
    const created = stripe.disputeEvent(dispute.id, 'created');
    expect(created).toMatchObject({ account });
    expect(await outcomeOf(await deliverCardEvent(server, created))).toBe('dispute_opened');
    expect(await outcomeOf(await deliverCardEvent(server, created))).toBe('duplicate');
    const open = await invoice(owner, paid.invoiceId);
    expect(open.disputes).toEqual([
      {
        id: expect.any(Number), paymentId: paid.paymentId, amount: '80.00', reason: 'product_not_received', reasonWords: 'the customer says the work was not done',
        status: 'open', evidenceDueBy: '2026-06-08T22:59:00.000Z', openedAt: expect.any(String), closedAt: null,
      },
    ]);
    expect(open.refunds).toEqual([]);

    await mailSettled(server);
    const told = outbox().filter((m) => m.includes('has disputed a card payment of £80.00'));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('respond in your Stripe dashboard by 8 June 2026 at 23:59 (UK time)');
    expect(told[0]).toContain('the customer says the work was not done');
    expect(told[0]).toContain(`https://dashboard.stripe.com/test/disputes/${dispute.id}`);
    expect(told[0]).toContain(`/jobs/${paid.job.id}`);
    expect(addressedTo(told[0]!, paid.email)).toBe(false);

    stripe.closeDispute(dispute.id, 'won');
    expect(await outcomeOf(await deliverCardEvent(server, stripe.disputeEvent(dispute.id, 'closed')))).toBe('dispute_won');
    const won = await invoice(owner, paid.invoiceId);
    expect(won).toMatchObject({ status: 'paid', paid: '80.00', credited: '0.00', refunds: [] });
    expect(won.disputes[0]).toMatchObject({ status: 'won', closedAt: expect.any(String) });
  });

  it('closed lost, arriving before created: a refund of the disputed amount with its credit note, once; the late created changes nothing', async () => {
    const { owner } = await cardOwner(server, stripe);
    const paid = await paidDeposit(server, stripe, owner, '600');
    const dispute = stripe.openDispute(paid.charge.id, { amount: 4000, reason: 'fraudulent', dueBy });
    const created = stripe.disputeEvent(dispute.id, 'created');
    stripe.closeDispute(dispute.id, 'lost');
    const closed = stripe.disputeEvent(dispute.id, 'closed');
    await mailSettled(server);
    const before = outbox().length;

    expect(await outcomeOf(await deliverCardEvent(server, closed))).toBe('dispute_lost');
    expect(await outcomeOf(await deliverCardEvent(server, created))).toBe('duplicate');
    expect(await outcomeOf(await deliverCardEvent(server, closed))).toBe('duplicate');
    const lost = await invoice(owner, paid.invoiceId);
    expect(lost).toMatchObject({ paid: '20.00', credited: '40.00', owed: '0.00' });
    expect(lost.refunds).toMatchObject([{ amount: '40.00', providerRefundId: dispute.id, reason: 'Dispute lost: the cardholder says they did not make the payment', creditNoteNumber: expect.stringMatching(/^CN-/) }]);
    expect(lost.creditNotes).toHaveLength(1);
    expect(lost.disputes).toMatchObject([{ status: 'lost', amount: '40.00' }]);
    expect(lost.payments[0]!.refundable).toBe('20.00');

    // A refund event for the same charge later counts only Stripe's refunds, not the dispute's money.
    stripe.refundCharge(paid.charge.id, { amount: 500 });
    expect(await outcomeOf(await deliverCardEvent(server, stripe.chargeRefundedEvent(paid.charge.id)))).toBe('refund_recorded');
    expect((await invoice(owner, paid.invoiceId)).payments[0]!.refundable).toBe('15.00');

    await mailSettled(server);
    const mails = outbox().slice(before);
    expect(mails.filter((m) => m.includes('has disputed a card payment'))).toEqual([]);
    const outcome = mails.filter((m) => m.includes('The dispute of £40.00') && m.includes('was lost'));
    expect(outcome).toHaveLength(1);
    expect(outcome[0]).toContain(lost.refunds[0]!.creditNoteNumber!);
  });

  it('a dispute of a payment this install never recorded, or from another account, changes nothing', async () => {
    const { owner } = await cardOwner(server, stripe);
    const paid = await paidDeposit(server, stripe, owner, '700');
    const dispute = stripe.openDispute(paid.charge.id);
    expect(await outcomeOf(await deliverCardEvent(server, stripe.disputeEvent(dispute.id, 'created', { account: 'acct_other' })))).toBe('ignored');
    const stray = { ...dispute, id: 'dp_stray', payment_intent: 'pi_nobody', charge: 'ch_nobody' };
    const event = { ...stripe.disputeEvent(dispute.id, 'created'), id: 'evt_stray_dispute', data: { object: stray } };
    expect(await outcomeOf(await deliverCardEvent(server, event))).toBe('ignored');
    expect((await invoice(owner, paid.invoiceId)).disputes).toEqual([]);
  });
});
