import { plainLine } from '../../core/plain-text';
import { ROLE_LABELS, ROLE_SUMMARIES, type InvitableRole } from '../../core/team';
import type { MailMessage } from './mailer';

/**
 * The invitation to join a team (docs/product.md, Team): from the business by name, saying who
 * invited them, the role and what it can do, and the single-use link, which works for 7 days.
 */
export interface TeamInvitationEmailInput {
  to: string;
  /** The person's name as the owner typed it. */
  name: string;
  teamName: string;
  invitedBy: string;
  role: InvitableRole;
  link: string;
  /** "Tuesday 8 December 2026": the link's last day, UK time. */
  lastDay: string;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function teamInvitationEmail(input: TeamInvitationEmailInput): MailMessage {
  const team = plainLine(input.teamName) || 'your team';
  const inviter = plainLine(input.invitedBy);
  const role = ROLE_LABELS[input.role];
  const lines = [
    `Hello ${plainLine(input.name)},`,
    `${inviter} has invited you to join ${team} on TreeAnalyzer Pro as ${role === 'Office' ? 'an Office' : 'a Crew'} member: ${ROLE_SUMMARIES[input.role]}`,
    `Open this link to choose your password and join. It works once, until ${input.lastDay}:`,
  ];
  const after = [
    `You will sign in with this e-mail address (${input.to}).`,
    `If you were not expecting this, you can ignore this e-mail; nothing happens unless the link is opened and a password chosen.`,
  ];
  const text = [...lines, input.link, ...after].join('\n\n');
  const html = [
    ...lines.slice(0, 2).map((line) => `<p>${escape(line)}</p>`),
    `<p><a href="${escape(input.link)}">Join ${escape(team)}</a> (the link works once, until ${escape(input.lastDay)}).</p>`,
    ...after.map((line) => `<p>${escape(line)}</p>`),
  ].join('\n');
  return { to: input.to, subject: `Join ${team}`, text, html };
}
