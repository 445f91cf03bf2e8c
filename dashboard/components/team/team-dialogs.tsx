import { LoaderCircle } from 'lucide-react';
import { useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { INVITABLE_ROLES, ROLE_LABELS, ROLE_SUMMARIES, type InvitableRole, type TeamInvitation, type TeamMember } from '../../../core/team';
import { errorMessage } from '../../api/client';
import { teamApi, useMakeOwner, useTeamChange } from '../../api/team';
import { ErrorAlert } from '../alert';
import { Dialog } from '../dialog';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { buttonStyles } from '../ui';

/** What the owner is about to do, asked first (docs/product.md, Team: "each asking first"). */
export type TeamAsk =
  | { kind: 'withdraw'; invitation: TeamInvitation }
  | { kind: 'role'; member: TeamMember }
  | { kind: 'remove'; member: TeamMember }
  | { kind: 'owner'; member: TeamMember };

interface AskProps {
  ask: TeamAsk | null;
  onClose: () => void;
  /** The row (and its button) may be gone after the change: focus lands here instead. */
  returnFocusRef: RefObject<HTMLElement | null>;
}

/** The one dialog of Settings → Team; each question is its own body and buttons. */
export function TeamAskDialog({ ask, onClose, returnFocusRef }: AskProps) {
  // The last question stays rendered while the dialog closes, so the native close hands focus back.
  const [last, setLast] = useState(ask);
  if (ask && ask !== last) setLast(ask);
  const shown = ask ?? last;
  if (!shown) return null;
  const props = { open: ask !== null, onClose, returnFocusRef };
  // Keyed by the question, so each opens with its own fresh state.
  const key = `${shown.kind}-${'member' in shown ? shown.member.id : shown.invitation.id}`;
  if (shown.kind === 'withdraw') return <WithdrawDialog key={key} invitation={shown.invitation} {...props} />;
  if (shown.kind === 'role') return <RoleDialog key={key} member={shown.member} {...props} />;
  if (shown.kind === 'remove') return <RemoveDialog key={key} member={shown.member} {...props} />;
  return <OwnerDialog key={key} member={shown.member} {...props} />;
}

type Close = Omit<AskProps, 'ask'> & { open: boolean };

function Ask({
  title,
  description,
  keep,
  confirm,
  danger = false,
  pending,
  error,
  onConfirm,
  open,
  onClose,
  returnFocusRef,
  children,
  formId,
}: Close & {
  title: string;
  description?: string;
  keep: string;
  confirm: string;
  danger?: boolean;
  pending: boolean;
  error: unknown;
  onConfirm?: () => void;
  children?: ReactNode;
  /** The confirm button submits this form instead of calling onConfirm. */
  formId?: string;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      returnFocusRef={returnFocusRef}
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={onClose} disabled={pending}>
            {keep}
          </button>
          <button
            type={formId ? 'submit' : 'button'}
            form={formId}
            className={danger ? buttonStyles.danger : buttonStyles.primary}
            disabled={pending}
            aria-busy={pending || undefined}
            onClick={formId ? undefined : onConfirm}
          >
            {pending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
            {confirm}
          </button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        {error ? <ErrorAlert>{errorMessage(error, 'That did not work. Please try again.')}</ErrorAlert> : null}
        {children}
      </div>
    </Dialog>
  );
}

function WithdrawDialog({ invitation, open, onClose, returnFocusRef }: Close & { invitation: TeamInvitation }) {
  const withdraw = useTeamChange(teamApi.withdraw);
  return (
    <Ask
      title="Withdraw this invitation?"
      description={`${invitation.name} (${invitation.email}) will not be able to join from the e-mail's link. You can invite them again later.`}
      keep="Keep Invitation"
      confirm="Withdraw Invitation"
      danger
      pending={withdraw.isPending}
      error={withdraw.error}
      open={open}
      onClose={onClose}
      returnFocusRef={returnFocusRef}
      onConfirm={() =>
        withdraw.mutate(invitation.id, {
          onSuccess: () => {
            showToast({ title: 'Invitation Withdrawn', description: `The link sent to ${invitation.email} no longer works.` });
            onClose();
          },
        })
      }
    />
  );
}

function RoleDialog({ member, open, onClose, returnFocusRef }: Close & { member: TeamMember }) {
  const current = member.role === 'owner' ? 'office' : member.role;
  const [role, setRole] = useState<InvitableRole>(current === 'office' ? 'crew' : 'office');
  const change = useTeamChange(({ id, role: next }: { id: number; role: InvitableRole }) => teamApi.changeRole(id, next));
  return (
    <Ask
      title={`Change ${member.name}'s role?`}
      description={`${member.name} is ${ROLE_LABELS[member.role]} now. What they see changes at their next click.`}
      keep="Keep Role"
      confirm={`Make ${ROLE_LABELS[role]}`}
      pending={change.isPending}
      error={change.error}
      open={open}
      onClose={onClose}
      returnFocusRef={returnFocusRef}
      onConfirm={() =>
        change.mutate(
          { id: member.id, role },
          {
            onSuccess: () => {
              showToast({ title: 'Role Changed', description: `${member.name} is ${ROLE_LABELS[role]} now.` });
              onClose();
            },
          },
        )
      }
    >
      <fieldset>
        <legend className="text-sm font-medium text-stone-800">New role</legend>
        <div className="mt-1 flex flex-col gap-2">
          {INVITABLE_ROLES.map((option) => (
            <label key={option} className="flex items-start gap-3 rounded-lg border border-stone-200 px-3 py-2.5 has-checked:border-green-700 has-checked:bg-green-50">
              <input
                type="radio"
                name="new-role"
                value={option}
                checked={role === option}
                onChange={() => setRole(option)}
                className="mt-0.5 size-5 shrink-0 accent-green-800"
              />
              <span className="text-sm">
                <span className="block font-semibold text-stone-900">
                  {ROLE_LABELS[option]}
                  {option === member.role ? ' (now)' : ''}
                </span>
                <span className="text-stone-700">{ROLE_SUMMARIES[option]}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    </Ask>
  );
}

function RemoveDialog({ member, open, onClose, returnFocusRef }: Close & { member: TeamMember }) {
  const remove = useTeamChange(teamApi.remove);
  return (
    <Ask
      title={`Remove ${member.name} from the team?`}
      description={`${member.name} is signed out everywhere at once and cannot sign in again. What they did stays, with their name on it.`}
      keep="Keep in Team"
      confirm="Remove from Team"
      danger
      pending={remove.isPending}
      error={remove.error}
      open={open}
      onClose={onClose}
      returnFocusRef={returnFocusRef}
      onConfirm={() =>
        remove.mutate(member.id, {
          onSuccess: () => {
            showToast({ title: 'Removed from the Team', description: `${member.name} has been signed out and can no longer sign in.` });
            onClose();
          },
        })
      }
    />
  );
}

function OwnerDialog({ member, open, onClose, returnFocusRef }: Close & { member: TeamMember }) {
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const makeOwner = useMakeOwner();
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) return setMissing(true);
    setMissing(false);
    makeOwner.mutate(
      { memberId: member.id, password },
      {
        onSuccess: () => {
          showToast({ title: 'Ownership Handed On', description: `${member.name} is the owner now, and you are Office.` });
          onClose();
        },
      },
    );
  }
  return (
    <Ask
      title={`Make ${member.name} the owner?`}
      description={`${member.name} gets the plan, card payments, bank details and the team; you become Office. Only the new owner can hand it back.`}
      keep="Stay Owner"
      confirm="Make Owner"
      danger
      pending={makeOwner.isPending}
      error={makeOwner.error}
      open={open}
      onClose={onClose}
      returnFocusRef={returnFocusRef}
      formId="make-owner-form"
    >
      <form id="make-owner-form" noValidate onSubmit={submit}>
        <TextField
          label="Your password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={missing ? 'Please enter your password' : undefined}
          required
        />
      </form>
    </Ask>
  );
}
