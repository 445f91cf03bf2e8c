import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminAccountPageSchema, adminSignInListSchema } from '../../core/admin';
import { creditLedger, treeAnalyses } from '../../db/schema';
import { analyze, grantTo } from '../../testing/analysis';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { invoiceOf } from '../../testing/invoices';
import { jobOf } from '../../testing/jobs';
import { mailSettled } from '../../testing/mail';
import { acceptQuote, ownerWithProfile, sentLinesJob } from '../../testing/quote-links';
import { addTeamMember, type TeamMember } from '../../testing/team';

/*
 * Audit (docs/product.md, Team): what a person in the team does is recorded as theirs and named
 * to the owner ("Sent by Sam Field", "Payment recorded by Sam Field"); the credits they spend name
 * them on the ledger; the admin log keeps their sign-ins. A solo owner's answers carry no names.
 */
let server: TestServer;
let owner: TestClient;
let ownerUsername: string;
let office: TeamMember;

beforeAll(async () => {
  server = await startTestServer();
  // The first account on the install is its admin, so the owner can read the admin log too.
  const registered = await ownerWithProfile(server);
  owner = registered.client;
  ownerUsername = registered.account.username;
  office = await addTeamMember(server, owner, { role: 'office', firstName: 'Sam', lastName: 'Field' });
});
afterAll(async () => {
  await mailSettled(server);
  await server.close();
});

describe('what an office member does is named to the owner', () => {
  it('the job they made and sent, its booking and the payment they recorded name them; what the owner did names the owner', async () => {
    const { job: sent, token } = await sentLinesJob(server, office.client, { name: 'Alex Customer', email: 'alex@example.com', siteAddress: '4 Elm Row, Leeds' }, [
      { description: 'Fell the leaning ash', price: '400' },
    ]);
    expect((await acceptQuote(server, token)).status).toBe(200);

    // The owner marks it done: a second person, named as themselves.
    const seen = await jobOf(await owner.get(`/api/jobs/${sent.id}`));
    expect(seen.createdBy).toBe('Sam Field');
    expect(seen.versions[0]!.sentBy).toBe('Sam Field');
    expect(seen.doneBy).toBeNull();

    const invoice = await invoiceOf(await office.client.post(`/api/jobs/${sent.id}/invoices`, { kind: 'final' }), 201);
    const issued = await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/issue`));
    const emailed = await invoiceOf(await office.client.post(`/api/invoices/${issued.id}/send`, {}));
    await invoiceOf(await office.client.post(`/api/invoices/${issued.id}/payments`, { amount: '100.00', paidOn: emailed.issuedOn, method: 'bank_transfer', reference: 'ALEX' }), 201);

    const read = await invoiceOf(await owner.get(`/api/invoices/${invoice.id}`));
    expect(read.createdBy).toBe('Sam Field');
    expect(read.issuedBy).toBe('Ash Grove');
    expect(read.sentBy).toBe('Sam Field');
    expect(read.payments.map((payment) => [payment.amount, payment.recordedBy])).toEqual([['100.00', 'Sam Field']]);

    // The row holds the person, not the team's account that keys the invoice.
    const recorded = server.db.$client.prepare('select recorded_by from invoice_payments where invoice_id = ?').pluck().all(invoice.id);
    expect(recorded).toEqual([office.userId]);

    const refunded = await invoiceOf(await office.client.post(`/api/invoices/${invoice.id}/payments/${read.payments[0]!.id}/refund`, { amount: '20.00', reason: 'Hedge left' }));
    expect(refunded.refunds.map((refund) => refund.recordedBy)).toEqual(['Sam Field']);
    expect(refunded.creditNotes.map((note) => note.issuedBy)).toEqual(['Sam Field']);
  });

  it('a booking and the job marked done name whoever did them', async () => {
    const { job, token } = await sentLinesJob(server, owner, { name: 'Bea Customer', email: 'bea@example.com', siteAddress: '9 Oak Lane, Leeds' }, [{ description: 'Crown lift the lime', price: '250' }]);
    // A trade customer's quote would skip the 14 days; this consumer asks to start early instead.
    expect((await acceptQuote(server, token, [], true)).status).toBe(200);
    const booked = await office.client.post(`/api/jobs/${job.id}/book`, { date: '2026-06-03', startTime: '08:00', days: 1 });
    expect(booked.status, await booked.clone().text()).toBe(200);
    const done = await jobOf(await owner.post(`/api/jobs/${job.id}/done`, { actuals: [] }));
    expect(done.createdBy).toBe('Ash Grove');
    expect(done.versions[0]!.sentBy).toBe('Ash Grove');
    expect(done.booking?.bookedBy).toBe('Sam Field');
    expect(done.doneBy).toBe('Ash Grove');
  });

  it('the analysis they ran spends the team’s credits, and the ledger names them', async () => {
    grantTo(server, ownerUsername, 50);
    const res = await analyze(office.client, { description: 'oak, 16 inch trunk, 40 ft tall' });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = ((await res.json()) as { analysis: { id: number } }).analysis;
    const row = server.db.select().from(treeAnalyses).where(eq(treeAnalyses.id, id)).get()!;
    expect(row.runBy).toBe(office.userId);
    const spent = server.db.select().from(creditLedger).where(eq(creditLedger.reason, 'analysis')).all();
    expect(spent).toEqual([expect.objectContaining({ userId: row.userId, delta: -10, byUserId: office.userId })]);
    // The owner reading it sees who ran it.
    const read = (await (await owner.get(`/api/analysis/${id}`)).json()) as { analysis: { runBy?: string | null } };
    expect(read.analysis.runBy).toBe('Sam Field');
    // The team's balance paid it.
    expect(((await (await owner.get('/api/user-tokens')).json()) as { tokensRemaining: number }).tokensRemaining).toBe(40);
  });
});

describe('a person taken out of the team', () => {
  it('keeps their name on what they did', async () => {
    const gone = await addTeamMember(server, owner, { role: 'office', firstName: 'Ana', lastName: 'Ruiz' });
    const { job } = await sentLinesJob(server, gone.client, { name: 'Dee Customer', email: 'dee@example.com' }, [{ description: 'Fell the conifer', price: '500' }]);
    // Removed as DELETE /api/team/members/{id} leaves them: their row kept, marked removed.
    server.db.$client.prepare("update team_members set status = 'removed', removed_at = ? where user_id = ?").run(server.clock.now().getTime(), gone.userId);
    const read = await jobOf(await owner.get(`/api/jobs/${job.id}`));
    expect(read.createdBy).toBe('Ana Ruiz');
    expect(read.versions[0]!.sentBy).toBe('Ana Ruiz');
  });
});

describe('the admin log keeps sign-ins per person', () => {
  it('lists the office member with their team, role and sign-in, and the owner with theirs', async () => {
    const res = await owner.get(`/api/admin/accounts?query=${office.username}`);
    expect(res.status).toBe(200);
    const page = adminAccountPageSchema.parse(await res.json());
    const ownerRow = adminAccountPageSchema.parse(await (await owner.get(`/api/admin/accounts?query=${ownerUsername}`)).json()).accounts[0]!;
    expect(page.accounts).toHaveLength(1);
    const member = page.accounts[0]!;
    expect(member).toMatchObject({ team: { accountId: ownerRow.id, name: 'Birch Brothers' }, teamRole: 'office', memberStatus: 'active' });
    expect(member.recentSignIns).toHaveLength(1);
    expect(member.recentSignIns[0]!.at).toBe(server.clock.now().toISOString());
    expect(member.recentSignIns[0]!.address).toEqual(expect.any(String));
    expect(ownerRow).toMatchObject({ team: { accountId: ownerRow.id, name: 'Birch Brothers' }, teamRole: 'owner' });

    // The console log's line for the person says the same.
    const logged = await owner.get('/api/admin/log-accounts');
    expect(logged.status).toBe(200);
    const requestId = logged.headers.get('x-request-id');
    const line = server.logs.find((l) => l.requestId === requestId && l.event === 'admin.account' && l.username === office.username);
    expect(line).toMatchObject({ team: 'Birch Brothers', teamAccountId: ownerRow.id, teamRole: 'office', memberStatus: 'active', recentSignIns: member.recentSignIns });
  });

  it('lists the newest sign-ins with who, their team and role, to the admin only', async () => {
    server.clock.advance(60_000);
    const again = await addTeamMember(server, owner, { role: 'crew', firstName: 'Cal', lastName: 'Climber' });
    const res = await owner.get('/api/admin/sign-ins');
    expect(res.status).toBe(200);
    const { signIns } = adminSignInListSchema.parse(await res.json());
    expect(signIns[0]).toEqual({
      at: server.clock.now().toISOString(),
      address: expect.any(String),
      person: { id: again.userId, username: again.username, name: 'Cal Climber' },
      team: { accountId: expect.any(Number), name: 'Birch Brothers' },
      teamRole: 'crew',
    });
    expect(signIns.filter((s) => s.person.id === office.userId).map((s) => s.teamRole)).toEqual(['office']);
    // Nothing secret: no password hash or session id in the answer.
    const raw = JSON.stringify(signIns);
    for (const secret of server.db.$client.prepare('select password from users').pluck().all() as string[]) expect(raw).not.toContain(secret);
    for (const secret of server.db.$client.prepare('select id from sessions').pluck().all() as string[]) expect(raw).not.toContain(secret);
    // An office member of an admin's team is not an admin, and the admin log is the owner's.
    expect((await office.client.get('/api/admin/sign-ins')).status).toBe(403);
  });
});

describe('a team of one', () => {
  it('answers no names at all, as before teams', async () => {
    const solo = await ownerWithProfile(server);
    const { job } = await sentLinesJob(server, solo.client, { name: 'Cy Customer', email: 'cy@example.com' }, [{ description: 'Reduce the willow', price: '300' }]);
    const body = (await (await solo.client.get(`/api/jobs/${job.id}`)).json()) as { job: Record<string, unknown> & { versions: Record<string, unknown>[] } };
    expect(Object.keys(body.job)).not.toContain('createdBy');
    expect(Object.keys(body.job)).not.toContain('doneBy');
    expect(Object.keys(body.job.versions[0]!)).not.toContain('sentBy');
  });
});
