import { Crown, RefreshCw, Trash2, UserCog, UserMinus } from 'lucide-react';
import { useRef, useState } from 'react';
import { ROLE_LABELS, type TeamInvitation, type TeamMember } from '../../../core/team';
import { errorMessage } from '../../api/client';
import { teamApi, useTeam, useTeamChange } from '../../api/team';
import { formatBillingDate } from '../billing/billing-date';
import { PageState } from '../page-state';
import { showErrorToast, showToast } from '../toast';
import { cardStyles, tallButtonStyles } from '../ui';
import { InviteForm } from './invite-form';
import { TeamAskDialog, type TeamAsk } from './team-dialogs';

/** "2 Dec 2026, 10:00" in the viewer's time zone: the server keeps last-seen to the hour. */
function formatSeen(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

const rowButton = `${tallButtonStyles.secondary} px-3`;
const rowDangerButton = `${tallButtonStyles.dangerOutline} px-3`;

function MemberRow({ member, onAsk }: { member: TeamMember; onAsk: (ask: TeamAsk) => void }) {
  // The owner's role and place are changed only by handing ownership on; nobody changes their own.
  const changeable = member.role !== 'owner' && !member.you;
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-semibold text-stone-900">
          {member.name}
          {member.you ? <span className="font-normal text-stone-600"> (you)</span> : null}
          <span className="ml-2 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-800">{ROLE_LABELS[member.role]}</span>
        </p>
        <p className="text-sm [overflow-wrap:anywhere] text-stone-700">{member.email}</p>
        <p className="text-xs text-stone-600">{member.lastSeenAt ? `Last seen ${formatSeen(member.lastSeenAt)}` : 'Not signed in yet'}</p>
      </div>
      {changeable ? (
        <div className="flex flex-wrap gap-2">
          <button type="button" className={rowButton} onClick={() => onAsk({ kind: 'role', member })}>
            <UserCog aria-hidden="true" className="size-4" />
            Change role<span className="sr-only">{` of ${member.name}`}</span>
          </button>
          {member.role === 'office' ? (
            <button type="button" className={rowButton} onClick={() => onAsk({ kind: 'owner', member })}>
              <Crown aria-hidden="true" className="size-4" />
              Make owner<span className="sr-only">{`: ${member.name}`}</span>
            </button>
          ) : null}
          <button type="button" className={rowDangerButton} onClick={() => onAsk({ kind: 'remove', member })}>
            <UserMinus aria-hidden="true" className="size-4" />
            Remove<span className="sr-only">{` ${member.name}`}</span>
          </button>
        </div>
      ) : null}
    </li>
  );
}

/** `readAt`: when the list was read (ms), the moment its expiry dates are judged at. */
function InvitationRow({ invitation, readAt, onAsk }: { invitation: TeamInvitation; readAt: number; onAsk: (ask: TeamAsk) => void }) {
  const resend = useTeamChange(teamApi.resend);
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-semibold text-stone-900">
          {invitation.name}
          <span className="ml-2 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-800">{ROLE_LABELS[invitation.role]}</span>
        </p>
        <p className="text-sm [overflow-wrap:anywhere] text-stone-700">{invitation.email}</p>
        <p className="text-xs text-stone-600">
          {/* An expired invitation stays listed, to be sent again (docs/product.md, Team). */}
          {new Date(invitation.expiresAt).getTime() < readAt
            ? `Link expired ${formatBillingDate(invitation.expiresAt)}: send it again for a new one`
            : `Link works until ${formatBillingDate(invitation.expiresAt)}`}
          {invitation.invitedBy ? ` · invited by ${invitation.invitedBy}` : ''}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={rowButton}
          disabled={resend.isPending}
          aria-busy={resend.isPending || undefined}
          onClick={() =>
            resend.mutate(invitation.id, {
              onSuccess: () => showToast({ title: 'Invitation Sent Again', description: `A new link went to ${invitation.email}; the old one no longer works.` }),
              onError: (error) => showErrorToast({ title: 'Invitation Not Sent', description: errorMessage(error, 'Please try again.') }),
            })
          }
        >
          <RefreshCw aria-hidden="true" className="size-4" />
          Resend<span className="sr-only">{` the invitation to ${invitation.email}`}</span>
        </button>
        <button type="button" className={rowDangerButton} onClick={() => onAsk({ kind: 'withdraw', invitation })}>
          <Trash2 aria-hidden="true" className="size-4" />
          Withdraw<span className="sr-only">{` the invitation to ${invitation.email}`}</span>
        </button>
      </div>
    </li>
  );
}

/**
 * Settings → Team (docs/product.md, Team; the owner's only): invite by e-mail, the invitations
 * waiting with Resend and Withdraw, and the members with role change, Make owner and Remove.
 * Every change but Resend asks first.
 */
export function TeamSection() {
  const team = useTeam();
  const [ask, setAsk] = useState<TeamAsk | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const active = team.data?.members.filter((member) => member.status === 'active') ?? [];

  return (
    <section id="team" aria-labelledby="team-title" className={`${cardStyles} mt-8 scroll-mt-4 p-4 sm:p-6`}>
      <h2 ref={headingRef} tabIndex={-1} id="team-title" className="text-xl font-bold text-green-900 outline-none">
        Team
      </h2>
      <p className="mt-1 max-w-prose text-sm text-stone-700">
        Everyone signs in as themselves. Office handles customers, quotes, jobs and invoices; crews see only the work booked to them, without prices.
      </p>
      <div className="mt-5 flex max-w-3xl flex-col gap-6">
        <InviteForm />
        {team.isPending ? (
          <PageState kind="loading" label="Loading your team" className="py-6" />
        ) : team.isError ? (
          <PageState kind="failed" error={team.error} fallback="Your team could not be loaded." onRetry={team.refetch} />
        ) : (
          <>
            {team.data.invitations.length > 0 ? (
              <div className="border-t border-stone-200 pt-5">
                <h3 className="font-semibold text-stone-900">Invitations waiting</h3>
                <ul aria-label="Invitations waiting" className="divide-y divide-stone-200">
                  {team.data.invitations.map((invitation) => (
                    <InvitationRow key={invitation.id} invitation={invitation} readAt={team.dataUpdatedAt} onAsk={setAsk} />
                  ))}
                </ul>
              </div>
            ) : null}
            <div className="border-t border-stone-200 pt-5">
              <h3 className="font-semibold text-stone-900">Members</h3>
              <ul aria-label="Members" className="divide-y divide-stone-200">
                {active.map((member) => (
                  <MemberRow key={member.id} member={member} onAsk={setAsk} />
                ))}
              </ul>
            </div>
          </>
        )}
      </div>
      <TeamAskDialog ask={ask} onClose={() => setAsk(null)} returnFocusRef={headingRef} />
    </section>
  );
}
