import { RefreshCw } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { Redirect } from 'wouter';
import { homePathFor } from '../../core/permissions';
import { CURRENT_USER_ERROR_MESSAGE, useSession, useSignedOutNotice } from '../api/session';
import { ErrorAlert } from './alert';
import { Logo } from './logo';
import { FullPageSpinner } from './spinner';
import { buttonStyles } from './ui';

/*
 * Asked for when a signed-out visitor is shown it: the office's app has it in its first load anyway
 * (routes.tsx), and the crew's (dashboard/crew/main.tsx) only needs it after a sign-out.
 */
const LoginPage = lazy(() => import('../pages/login').then((m) => ({ default: m.LoginPage })));

function CurrentUserError({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4">
      <Logo />
      <ErrorAlert>{CURRENT_USER_ERROR_MESSAGE}</ErrorAlert>
      <button type="button" className={buttonStyles.secondary} onClick={onRetry} disabled={retrying}>
        <RefreshCw aria-hidden="true" className="size-4" />
        Try Again
      </button>
    </main>
  );
}

/** The sign-in screen, its code asked for when shown. */
export function LoginScreen() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <LoginPage />
    </Suspense>
  );
}

/**
 * A page for signed-in users (docs/product.md, Screens): a spinner while the session loads,
 * the login screen in place for a signed-out visitor, an error when the session
 * cannot be read.
 */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const me = useSession();
  const signedOut = useSignedOutNotice();
  if (me.isPending) return <FullPageSpinner />;
  if (me.isError) return <CurrentUserError onRetry={() => void me.refetch()} retrying={me.isFetching} />;
  // Signed out while the page was open: the sign-in screen, at its own address, says so.
  if (!me.data) return signedOut ? <Redirect to="/login" replace /> : <LoginScreen />;
  return children;
}

/** Login and register: a signed-in person has nothing to do there and goes to their home (a crew member's is My days). */
export function GuestOnly({ children }: { children: ReactNode }) {
  const me = useSession();
  if (me.isPending) return <FullPageSpinner />;
  if (me.data) return <Redirect to={homePathFor(me.data.member.role)} replace />;
  return children;
}
