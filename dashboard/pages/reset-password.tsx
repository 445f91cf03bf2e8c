import { useMutation } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { checkResetPassword, RESET_DONE_MESSAGE } from '../../core/account-checks';
import { api, errorMessage } from '../api/client';
import { ErrorAlert } from '../components/alert';
import { AuthLayout } from '../components/auth-layout';
import { useCheckedForm } from '../components/checked-form';
import { SubmitButton } from '../components/submit-button';
import { TextField } from '../components/text-field';
import { showErrorToast } from '../components/toast';
import { buttonStyles, linkStyles } from '../components/ui';

/** A missing token: tell the visitor once and send them to sign in. */
function InvalidResetLink() {
  const [, navigate] = useLocation();
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    showErrorToast({ title: 'Invalid Reset Link', description: 'The password reset link is invalid or missing.' });
    navigate('/login', { replace: true });
  }, [navigate]);
  return null;
}

function ResetPasswordForm({ token }: { token: string }) {
  // The token is part of the checked payload but not a field anyone types.
  const form = useCheckedForm(['password', 'confirmPassword'], checkResetPassword, { token });
  const { errors } = form;

  const resetPassword = useMutation({
    mutationFn: api.auth.resetPassword,
    onError: (error) => {
      showErrorToast({
        title: 'Password Reset Failed',
        description: errorMessage(error, 'Please check your information and try again.'),
      });
    },
  });

  if (resetPassword.isSuccess) {
    return (
      <AuthLayout title="Password Reset Successful">
        <div className="flex flex-col items-center gap-4 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-green-100 text-green-800">
            <CheckCircle2 aria-hidden="true" className="size-6" />
          </span>
          <p role="status" className="text-stone-800">
            {resetPassword.data.message || RESET_DONE_MESSAGE}
          </p>
          <Link href="/login" className={`${buttonStyles.primary} w-full`}>
            Sign In
          </Link>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Reset Password" subtitle="Choose a new password for your account.">
      <form
        noValidate
        onSubmit={form.onSubmit((values) => resetPassword.mutate(values))}
        onChange={form.onChange}
        className="flex flex-col gap-4"
      >
        {resetPassword.isError ? (
          <ErrorAlert>
            {errorMessage(resetPassword.error, 'Please check your information and try again.')}{' '}
            <Link href="/forgot-password" className="font-semibold underline">
              Request a new link
            </Link>
          </ErrorAlert>
        ) : null}
        {errors.token ? <ErrorAlert>{errors.token}</ErrorAlert> : null}
        <TextField
          label="New Password"
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
        <SubmitButton pending={resetPassword.isPending}>Reset Password</SubmitButton>
      </form>
      <p className="mt-6 text-center text-sm text-stone-700">
        Remembered it?{' '}
        <Link href="/login" className={linkStyles}>
          Back to Sign In
        </Link>
      </p>
    </AuthLayout>
  );
}

/** Set a new password from the e-mailed link, /reset-password?token=... (docs/product.md, Accounts). */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  if (!token) return <InvalidResetLink />;
  return <ResetPasswordForm token={token} />;
}
