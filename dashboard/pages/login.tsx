import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { checkLogin } from '../../core/account-checks';
import { api, errorMessage, isApiError } from '../api/client';
import { homePathFor } from '../../core/permissions';
import { sessionFrom, startSession, useSignedOutNotice } from '../api/session';
import { ErrorAlert } from '../components/alert';
import { AuthLayout } from '../components/auth-layout';
import { useCheckedForm } from '../components/checked-form';
import { SubmitButton } from '../components/submit-button';
import { TextField } from '../components/text-field';
import { showErrorToast, showToast } from '../components/toast';
import { linkStyles } from '../components/ui';

/** Sign in (docs/product.md, Accounts). Also shown in place of any signed-in page for a signed-out visitor. */
export function LoginPage() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const form = useCheckedForm(['usernameOrEmail', 'password'], checkLogin);
  const { errors } = form;
  const signedOut = useSignedOutNotice();

  const login = useMutation({
    mutationFn: api.auth.login,
    onSuccess: (answer) => {
      const session = sessionFrom(answer);
      startSession(queryClient, session);
      showToast({ title: 'Welcome back!', description: 'You have successfully logged in.' });
      navigate(homePathFor(session.member.role));
    },
    onError: (error) => {
      // Refused for too many attempts, the form and the toast both say the server's wait
      // rather than a bare "try again", which would send the user to try again at once.
      showErrorToast({
        title: 'Login Failed',
        description: isApiError(error, 'RATE_LIMITED')
          ? errorMessage(error, 'Login failed')
          : 'Please check your credentials and try again.',
      });
    },
  });

  return (
    <AuthLayout title="Sign In" subtitle="Welcome back. Sign in to your TreeAnalyzer Pro account.">
      <form noValidate onSubmit={form.onSubmit((values) => login.mutate(values))} onChange={form.onChange} className="flex flex-col gap-4">
        {signedOut && !login.isError ? (
          <p role="status" className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-950">
            {signedOut} Please sign in again.
          </p>
        ) : null}
        {login.isError ? <ErrorAlert>{errorMessage(login.error, 'Login failed')}</ErrorAlert> : null}
        <TextField
          label="Username or Email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          name="usernameOrEmail"
          error={errors.usernameOrEmail}
        />
        <div className="flex flex-col gap-1.5">
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            name="password"
            error={errors.password}
          />
          <Link href="/forgot-password" className={`self-end text-sm ${linkStyles}`}>
            Forgot password?
          </Link>
        </div>
        <SubmitButton pending={login.isPending}>Sign In</SubmitButton>
      </form>
      <p className="mt-6 text-center text-sm text-stone-700">
        New to TreeAnalyzer Pro?{' '}
        <Link href="/register" className={linkStyles}>
          Create an account
        </Link>
      </p>
    </AuthLayout>
  );
}
