import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useRoute } from 'wouter';
import { ACCOUNT_MESSAGES, type Checked, type FieldErrors } from '../../core/account-checks';
import { homePathFor } from '../../core/permissions';
import { joinSchema } from '../../core/team-requests';
import { ROLE_LABELS, ROLE_SUMMARIES, type InvitationPreview } from '../../core/team';
import { ApiError, errorMessage, isApiError } from '../api/client';
import { sessionFrom, startSession } from '../api/session';
import { teamApi } from '../api/team';
import { ErrorAlert } from '../components/alert';
import { AuthLayout } from '../components/auth-layout';
import { useCheckedForm } from '../components/checked-form';
import { PageState } from '../components/page-state';
import { SubmitButton } from '../components/submit-button';
import { TextField } from '../components/text-field';
import { showToast } from '../components/toast';
import { buttonStyles, linkStyles } from '../components/ui';
import { formatBillingDate } from '../components/billing/billing-date';

interface JoinValues {
  token: string;
  name: string;
  password: string;
  confirmPassword: string;
}
const FIELDS = ['name', 'password', 'confirmPassword'] as const;
type Field = (typeof FIELDS)[number];

/** The server's rules (core/team-requests.ts joinSchema: a name, and the password rules of registering), and the confirmation matching. */
function checkJoin(raw: JoinValues): Checked<Field | 'token', JoinValues> {
  const errors: FieldErrors<Field | 'token'> = {};
  const parsed = joinSchema.safeParse({ token: raw.token, name: raw.name, password: raw.password });
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = String(issue.path[0]) as Field | 'token';
    errors[field] ??= issue.message;
  }
  if (raw.confirmPassword === '') errors.confirmPassword = ACCOUNT_MESSAGES.confirmRequired;
  else if (raw.confirmPassword !== raw.password) errors.confirmPassword = ACCOUNT_MESSAGES.mismatch;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, values: { ...raw, name: parsed.data?.name ?? raw.name } };
}

function isField(name: string): name is Field {
  return (FIELDS as readonly string[]).includes(name);
}

/** A used, withdrawn, replaced or expired link: the server's one sentence, and where to go instead. */
function GoneLink({ message }: { message: string }) {
  return (
    <AuthLayout title="This invitation has ended">
      <div className="flex flex-col gap-4">
        <ErrorAlert>{message}</ErrorAlert>
        <Link href="/login" className={`${buttonStyles.primary} w-full`}>
          Sign In
        </Link>
      </div>
    </AuthLayout>
  );
}

function JoinForm({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const form = useCheckedForm(FIELDS, checkJoin, { token });
  const { errors } = form;

  const join = useMutation({
    mutationFn: ({ name, password }: JoinValues) => teamApi.join({ token, name, password }),
    onSuccess: (answer) => {
      const session = sessionFrom(answer);
      startSession(queryClient, session);
      showToast({ title: `Welcome to ${invitation.businessName}`, description: `You have joined the team as ${ROLE_LABELS[session.member.role]}.` });
      navigate(homePathFor(session.member.role), { replace: true });
    },
    onError: (error) => {
      if (!(error instanceof ApiError)) return;
      for (const [field, messages] of Object.entries(error.details ?? {})) {
        if (isField(field) && messages[0]) form.setError(field, messages[0]);
      }
    },
  });

  // The link ended while the form was open (withdrawn, or used in another tab): the same page as opening it now.
  if (isApiError(join.error, 'INVITATION_GONE')) return <GoneLink message={join.error.message} />;

  return (
    <AuthLayout title={`Join ${invitation.businessName}`} subtitle="Set your name and a password to sign in with.">
      {invitation.logoUrl ? <img src={invitation.logoUrl} alt={`${invitation.businessName} logo`} className="mb-4 h-14 max-w-48 object-contain object-left" /> : null}
      <div className="mb-5 rounded-lg bg-stone-100 px-4 py-3 text-sm">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-stone-700">Role</dt>
          <dd className="font-semibold text-stone-900">{ROLE_LABELS[invitation.role]}</dd>
          <dt className="text-stone-700">E-mail</dt>
          <dd className="font-semibold [overflow-wrap:anywhere] text-stone-900">{invitation.email}</dd>
        </dl>
        <p className="mt-2 text-stone-700">{`${ROLE_SUMMARIES[invitation.role]} This link works until ${formatBillingDate(invitation.expiresAt)}.`}</p>
      </div>
      <form noValidate onSubmit={form.onSubmit((values) => join.mutate(values))} onChange={form.onChange} className="flex flex-col gap-4">
        {join.isError ? <ErrorAlert>{errorMessage(join.error, 'You could not join the team. Please try again.')}</ErrorAlert> : null}
        {errors.token ? <ErrorAlert>{errors.token}</ErrorAlert> : null}
        <TextField label="Your name" autoComplete="name" name="name" defaultValue={invitation.name} error={errors.name} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 6 characters."
          name="password"
          error={errors.password}
        />
        <TextField label="Confirm Password" type="password" autoComplete="new-password" name="confirmPassword" error={errors.confirmPassword} />
        <SubmitButton pending={join.isPending}>Join the Team</SubmitButton>
      </form>
      <p className="mt-6 text-center text-sm text-stone-700">
        Joined already?{' '}
        <Link href="/login" className={linkStyles}>
          Sign in
        </Link>
      </p>
    </AuthLayout>
  );
}

/** The join page, /join/{token} (docs/product.md, Team): the invitation e-mail's link; no sign-in needed. */
export function JoinPage() {
  // routes.tsx renders the public pages outside a <Route>, so the token is read from the address here.
  const [, params] = useRoute<{ token: string }>('/join/:token');
  const token = params?.token ?? '';
  const invitation = useQuery({ queryKey: ['/api/team/invitations', token], queryFn: () => teamApi.preview(token) });

  if (invitation.isPending) {
    return (
      <AuthLayout title="Join a Team">
        <PageState kind="loading" label="Opening your invitation" className="py-8" />
      </AuthLayout>
    );
  }
  if (isApiError(invitation.error, 'INVITATION_GONE')) return <GoneLink message={invitation.error.message} />;
  if (invitation.isError) {
    return (
      <AuthLayout title="Join a Team">
        <PageState kind="failed" error={invitation.error} fallback="Your invitation could not be opened." onRetry={invitation.refetch} />
      </AuthLayout>
    );
  }
  return <JoinForm token={token} invitation={invitation.data} />;
}
