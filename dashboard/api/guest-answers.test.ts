import { describe, expect, it } from 'vitest';
import { messageResponseSchema, userResponseSchema } from '../../core/accounts';
import { capabilitiesSchema } from '../../core/tree-details';
import { capabilitiesAnswer, messageAnswer, userAnswer } from './guest-answers';

/** The sign-in screens read answers without zod; they must accept and refuse what the zod schemas do. */
const user = { id: 7, username: 'ash', email: 'ash@example.com', firstName: 'Ash', lastName: 'Birch', role: 'user', createdAt: '2026-06-01T09:00:00.000Z' };

const verdict = (parsed: { success: boolean; data?: unknown }) => (parsed.success ? { success: true, data: parsed.data } : { success: false });

describe('guest answer readers agree with the zod schemas', () => {
  it('the current user, keeping only the public fields', () => {
    const answers: unknown[] = [
      { user },
      { user: { ...user, role: 'admin', extra: 'dropped' } },
      { user: { ...user, role: 'owner' } },
      { user, member: { memberId: 3, name: 'Ana Ruiz', role: 'office', businessName: 'Oak & Ash Tree Surgery' } },
      { user, member: { memberId: null, name: 'Ash Birch', role: 'owner', businessName: 'Ash Birch', extra: 'dropped' } },
      { user, member: { memberId: 3, name: 'Ana Ruiz', role: 'admin', businessName: 'Oak & Ash' } },
      { user, member: { memberId: 1.5, name: 'Ana Ruiz', role: 'crew', businessName: 'Oak & Ash' } },
      { user, member: { memberId: 3, name: 'Ana Ruiz', role: 'crew' } },
      { user, member: null },
      { user: { ...user, id: 1.5 } },
      { user: { ...user, email: null } },
      { user: null },
      {},
      null,
      [user],
      'text',
    ];
    for (const answer of answers) expect(verdict(userAnswer.safeParse(answer)), JSON.stringify(answer)).toEqual(verdict(userResponseSchema.safeParse(answer)));
  });

  it('a message and the capabilities', () => {
    for (const answer of [{ message: 'ok' }, { message: 1 }, {}, null]) {
      expect(verdict(messageAnswer.safeParse(answer))).toEqual(verdict(messageResponseSchema.safeParse(answer)));
    }
    for (const answer of [{ visionModel: true }, { visionModel: false, more: 1 }, { visionModel: 'yes' }, {}, null]) {
      expect(verdict(capabilitiesAnswer.safeParse(answer))).toEqual(verdict(capabilitiesSchema.safeParse(answer)));
    }
  });
});
