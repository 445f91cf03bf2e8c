import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { checkRegister } from '../../core/account-checks';
import { api, ApiError, errorMessage } from '../api/client';
import { homePathFor } from '../../core/permissions';
import { sessionFrom, startSession } from '../api/session';
import { AuthLayout } from '../components/auth-layout';
import { useCheckedForm } from '../components/checked-form';
import { SubmitButton } from '../components/submit-button';
import { TextField } from '../components/text-field';
import { showErrorToast, showToast } from '../components/toast';
import { linkStyles } from '../components/ui';

const FIELDS = ['firstName', 'lastName', 'username', 'email', 'password', 'confirmPassword'] as const;

function isField(name: string): name is (typeof FIELDS)[number] {
  return (FIELDS as readonly string[]).includes(name);
}

/** Create an account (docs/product.md, Accounts); the server signs the new user in. */
export function RegisterPage() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const form = useCheckedForm(FIELDS, checkRegister);
  const { errors } = form;

  /** Puts the server's per-field messages (400 details, 409 conflicts) on the fields they concern. */
  function showServerFieldErrors(error: unknown) {
    if (!(error instanceof ApiError)) return;
    for (const [field, messages] of Object.entries(error.details ?? {})) {
      if (isField(field) && messages[0]) form.setError(field, messages[0]);
    }
    if (error.code === 'CONFLICT') {
      if (/username/i.test(error.message)) form.setError('username', error.message);
      else if (/email/i.test(error.message)) form.setError('email', error.message);
    }
  }

  const register = useMutation({
    mutationFn: api.auth.register,
    onSuccess: (answer) => {
      const session = sessionFrom(answer);
      startSession(queryClient, session);
      showToast({
        title: 'Account Created!',
        description: 'Welcome to TreeAnalyzer Pro. You can now start subscribing to analyze trees.',
      });
      navigate(homePathFor(session.member.role));
    },
    onError: (error) => {
      showServerFieldErrors(error);
      showErrorToast({ title: 'Registration Failed', description: errorMessage(error, 'Registration failed') });
    },
  });

  return (
    <AuthLayout title="Create Account" subtitle="Start estimating tree work in minutes.">
      <form noValidate onSubmit={form.onSubmit((values) => register.mutate(values))} onChange={form.onChange} className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="First Name"
            autoComplete="given-name"
            name="firstName"
            error={errors.firstName}
          />
          <TextField
            label="Last Name"
            autoComplete="family-name"
            name="lastName"
            error={errors.lastName}
          />
        </div>
        <TextField
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          name="username"
          error={errors.username}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          name="email"
          error={errors.email}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 6 characters."
          name="password"
          error={errors.password}
        />
        <TextField
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          name="confirmPassword"
          error={errors.confirmPassword}
        />
        <SubmitButton pending={register.isPending}>Create Account</SubmitButton>
      </form>
      <p className="mt-6 text-center text-sm text-stone-700">
        Already have an account?{' '}
        <Link href="/login" className={linkStyles}>
          Sign in
        </Link>
      </p>
    </AuthLayout>
  );
}
