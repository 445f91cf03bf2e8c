import { zodResolver } from '@hookform/resolvers/zod';
import { Send } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { inviteSchema, type InviteInput } from '../../../core/team-requests';
import { INVITABLE_ROLES, ROLE_LABELS, ROLE_SUMMARIES } from '../../../core/team';
import { errorMessage, isApiError } from '../../api/client';
import { teamApi, useTeamChange } from '../../api/team';
import { SubmitButton } from '../submit-button';
import { TextField } from '../text-field';
import { showErrorToast, showToast } from '../toast';

const FIELDS = ['name', 'email', 'role'] as const;

/**
 * Invite someone by e-mail (docs/product.md, Team): their name, address and role. Crew is chosen
 * to start with, the role that sees least, as Jobber starts a new user at its most limited role.
 */
export function InviteForm() {
  const form = useForm<InviteInput>({ resolver: zodResolver(inviteSchema), defaultValues: { name: '', email: '', role: 'crew' } });
  const { errors } = form.formState;
  const invite = useTeamChange(teamApi.invite);

  return (
    <form
      noValidate
      aria-labelledby="invite-title"
      className="flex flex-col gap-4"
      onSubmit={form.handleSubmit((values) =>
        invite.mutate(values, {
          onSuccess: ({ invitation }) => {
            showToast({ title: 'Invitation Sent', description: `${invitation.name} (${invitation.email}) can join as ${ROLE_LABELS[invitation.role]} from the e-mail's link for 7 days.` });
            form.reset();
          },
          onError: (error) => {
            if (isApiError(error, 'VALIDATION_ERROR')) {
              for (const field of FIELDS) {
                const message = error.details?.[field]?.[0];
                if (message) form.setError(field, { message });
              }
            } else if (isApiError(error, 'CONFLICT')) {
              form.setError('email', { message: error.message });
            }
            showErrorToast({ title: 'Invitation Not Sent', description: errorMessage(error, 'Please try again.') });
          },
        }),
      )}
    >
      <h3 id="invite-title" className="font-semibold text-stone-900">
        Invite someone
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <TextField label="E-mail" type="email" autoComplete="off" autoCapitalize="none" spellCheck={false} error={errors.email?.message} {...form.register('email')} />
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-stone-800">Role</legend>
        <div className="mt-1 flex flex-col gap-2">
          {INVITABLE_ROLES.map((role) => (
            <label key={role} className="flex items-start gap-3 rounded-lg border border-stone-200 px-3 py-2.5 has-checked:border-green-700 has-checked:bg-green-50">
              <input type="radio" value={role} className="mt-0.5 size-5 shrink-0 accent-green-800" {...form.register('role')} />
              <span className="text-sm">
                <span className="block font-semibold text-stone-900">{ROLE_LABELS[role]}</span>
                <span className="text-stone-700">{ROLE_SUMMARIES[role]}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.role?.message ? <p className="mt-1 text-sm text-red-700">{errors.role.message}</p> : null}
      </fieldset>
      <div>
        <SubmitButton pending={invite.isPending} fullWidth={false} tall icon={<Send aria-hidden="true" className="size-4" />}>
          Send Invitation
        </SubmitButton>
      </div>
    </form>
  );
}
