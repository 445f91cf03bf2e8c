import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, MailCheck } from 'lucide-react';
import { Link } from 'wouter';
import { checkForgotPassword, RESET_REQUESTED_MESSAGE } from '../../core/account-checks';
import { api, errorMessage } from '../api/client';
import { AuthLayout } from '../components/auth-layout';
import { useCheckedForm } from '../components/checked-form';
import { SubmitButton } from '../components/submit-button';
import { TextField } from '../components/text-field';
import { showErrorToast } from '../components/toast';
import { buttonStyles, linkStyles } from '../components/ui';

function BackToSignIn() {
  return (
    <Link href="/login" className={`inline-flex items-center gap-1.5 text-sm ${linkStyles}`}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to Sign In
    </Link>
  );
}

/** Request a reset e-mail (docs/product.md, Accounts): the form, then a sent view that can return to it. */
export function ForgotPasswordPage() {
  const form = useCheckedForm(['email'], checkForgotPassword);
  const { errors } = form;

  const requestReset = useMutation({
    mutationFn: api.auth.forgotPassword,
    onError: (error) => {
      showErrorToast({
        title: 'Failed to Send Reset Email',
        description: errorMessage(error, 'Please check your email address and try again.'),
      });
    },
  });

  if (requestReset.isSuccess) {
    return (
      <AuthLayout title="Check Your Email">
        <div className="flex flex-col items-center gap-4 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-green-100 text-green-800">
            <MailCheck aria-hidden="true" className="size-6" />
          </span>
          <p role="status" className="text-stone-800">
            {RESET_REQUESTED_MESSAGE}
          </p>
          <p className="text-sm text-stone-600">The link expires in 1 hour. Check your spam folder if it does not arrive.</p>
          <button type="button" className={`${buttonStyles.secondary} w-full`} onClick={() => requestReset.reset()}>
            Send Another Reset Email
          </button>
          <BackToSignIn />
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Forgot Password" subtitle="Enter your email and we will send you a link to reset your password.">
      <form
        noValidate
        onSubmit={form.onSubmit((values) => requestReset.mutate(values))}
        onChange={form.onChange}
        className="flex flex-col gap-4"
      >
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          name="email"
          error={errors.email}
        />
        <SubmitButton pending={requestReset.isPending}>Send Reset Link</SubmitButton>
      </form>
      <div className="mt-6 flex justify-center">
        <BackToSignIn />
      </div>
    </AuthLayout>
  );
}
