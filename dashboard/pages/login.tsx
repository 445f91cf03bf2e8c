import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'wouter';
import { loginSchema, type LoginInput } from '../../core/accounts';
import { api, errorMessage } from '../api/client';
import { startSession } from '../api/session';
import { ErrorAlert } from '../components/alert';
import { AuthLayout } from '../components/auth-layout';
import { SubmitButton } from '../components/submit-button';
import { TextField } from '../components/text-field';
import { showErrorToast, showToast } from '../components/toast';
import { linkStyles } from '../components/ui';

/** Sign in (SPEC sections 2, 7, 8). Also shown in place of any signed-in page for a signed-out visitor. */
export function LoginPage() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const form = useForm({
    resolver: zodResolver(loginSchema),
    defaultValues: { usernameOrEmail: '', password: '' } satisfies LoginInput,
  });
  const { errors } = form.formState;

  const login = useMutation({
    mutationFn: api.auth.login,
    onSuccess: ({ user }) => {
      startSession(queryClient, user);
      showToast({ title: 'Welcome back!', description: 'You have successfully logged in.' });
      navigate('/');
    },
    onError: () => {
      showErrorToast({ title: 'Login Failed', description: 'Please check your credentials and try again.' });
    },
  });

  return (
    <AuthLayout title="Sign In" subtitle="Welcome back. Sign in to your TreeAnalyzer Pro account.">
      <form noValidate onSubmit={form.handleSubmit((values) => login.mutate(values))} className="flex flex-col gap-4">
        {login.isError ? <ErrorAlert>{errorMessage(login.error, 'Login failed')}</ErrorAlert> : null}
        <TextField
          label="Username or Email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          error={errors.usernameOrEmail?.message}
          {...form.register('usernameOrEmail')}
        />
        <div className="flex flex-col gap-1.5">
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...form.register('password')}
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
