import { describe, expect, it } from 'vitest';
import { signInFrom, signInWho } from './sign-in-words';

/* The admin log's recent sign-ins, per person (docs/product.md, Team). */
describe('signInWho', () => {
  it('names the person, their role and their team', () => {
    expect(signInWho({ person: { id: 2, username: 'sam', name: 'Sam Field' }, team: { accountId: 1, name: 'Birch Brothers' }, teamRole: 'office' })).toBe('Sam Field (Office, Birch Brothers)');
  });

  it('names a team of one that goes by its owner once', () => {
    expect(signInWho({ person: { id: 1, username: 'ash', name: 'Ash Grove' }, team: { accountId: 1, name: 'Ash Grove' }, teamRole: 'owner' })).toBe('Ash Grove (Owner)');
  });
});

describe('signInFrom', () => {
  it('says the network, or that it is not known', () => {
    expect(signInFrom('203.0.113.0/24')).toBe('from 203.0.113.0/24');
    expect(signInFrom(null)).toBe('from an unknown address');
  });
});
