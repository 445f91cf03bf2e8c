import type { AdminSignIn } from '../../../core/admin';
import { ROLE_LABELS } from '../../../core/team';

/**
 * Who signed in, as the admin log page lists them: "Sam Field (Office, Birch Brothers)"; an
 * owner of a team of one named once, "Ash Grove (Owner)", when the team goes by their name.
 * Pure, so it is tested without a browser.
 */
export function signInWho(signIn: Pick<AdminSignIn, 'person' | 'team' | 'teamRole'>): string {
  const role = ROLE_LABELS[signIn.teamRole];
  const team = signIn.team.name && signIn.team.name !== signIn.person.name ? `, ${signIn.team.name}` : '';
  return `${signIn.person.name} (${role}${team})`;
}

/** Where from: the client's network as the server saw it, or a sentence when it was not known. */
export const signInFrom = (address: string | null): string => (address ? `from ${address}` : 'from an unknown address');
