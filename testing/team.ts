import type { InvitableRole } from '../core/team';
import { TestClient, type TestServer } from './harness';
import { addressedTo, mailSettled, outboxMessages } from './mail';

let counter = 0;

/** The newest invitation e-mail to `email` (once the outbox has settled) and the token in its /join/ link. */
export async function invitationMailTo(server: TestServer, email: string): Promise<{ text: string; token: string }> {
  await mailSettled(server);
  const mail = outboxMessages(server.dataDir)
    .filter((m) => addressedTo(m.text, email) && /^Subject: Join /m.test(m.text))
    .pop();
  if (!mail) throw new Error(`no invitation e-mail to ${email}`);
  const token = /\/join\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error('no join link in the invitation e-mail');
  return { text: mail.text, token };
}

/**
 * The owner (a signed-in client) invites someone with `role`, who joins from the e-mail's link:
 * a new client signed in as them, with their e-mail, password and team_members id.
 */
export async function inviteAndJoin(
  server: TestServer,
  owner: TestClient,
  role: InvitableRole,
  person: { name?: string; email?: string; password?: string } = {},
): Promise<{ client: TestClient; email: string; password: string; memberId: number; invitationId: number }> {
  counter += 1;
  const email = person.email ?? `member${process.pid}x${counter}@example.com`;
  const password = person.password ?? 'member password';
  const invited = await owner.post('/api/team/invitations', { email, name: person.name ?? `Member ${counter}`, role });
  if (invited.status !== 201) throw new Error(`invite failed: ${invited.status} ${await invited.text()}`);
  const { invitation } = (await invited.json()) as { invitation: { id: number } };
  const { token } = await invitationMailTo(server, email);
  const client = new TestClient(server);
  const joined = await client.post('/api/team/join', { token, name: person.name ?? `Member ${counter}`, password });
  if (joined.status !== 201) throw new Error(`join failed: ${joined.status} ${await joined.text()}`);
  const { member } = (await joined.json()) as { member: { memberId: number } };
  return { client, email, password, memberId: member.memberId, invitationId: invitation.id };
}
