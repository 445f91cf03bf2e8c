import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { matchRoute, Redirect, Route, Switch, useLocation, useRouter } from 'wouter';
import { homePathFor, mayUse, PAGE_AREAS } from '../core/permissions';
import type { TeamRole } from '../core/team';
import { useCurrentUser, useRole, useSession } from './api/session';
import { GuestOnly, RequireSignedIn } from './components/auth-gate';
import { documentTitle } from './components/document-title';
import { FullPageSpinner } from './components/spinner';
import { ForgotPasswordPage } from './pages/forgot-password';
import { LoginPage } from './pages/login';
import { NotFoundPage } from './pages/not-found';
import { RegisterPage } from './pages/register';
import { ResetPasswordPage } from './pages/reset-password';


interface SignedInRoute {
  path: string;
  title: string;
  Page: ComponentType;
  /** Fetches the page's code without showing it. */
  preload: () => Promise<unknown>;
}

/**
 * Signed-in pages load on demand, so the sign-in screens (what a visitor sees first)
 * download only the code they need.
 */
function signedIn(path: string, title: string, load: () => Promise<ComponentType>): SignedInRoute {
  return { path, title, Page: lazy(() => load().then((Page) => ({ default: Page }))), preload: load };
}

/** docs/product.md, Screens: the signed-in screens, with their titles. */
const SIGNED_IN_ROUTES: SignedInRoute[] = [
  signedIn('/', 'Tree Analysis', () => import('./pages/home').then((m) => m.HomePage)),
  signedIn('/my-days', 'My days', () => import('./crew').then((m) => m.MyDaysPage)),
  signedIn('/my-days/jobs/:id', 'Job sheet', () => import('./crew').then((m) => m.JobSheetPage)),
  signedIn('/settings', 'AI Settings', () => import('./pages/settings').then((m) => m.SettingsPage)),
  signedIn('/admin/businesses', 'Business Admin', () => import('./pages/business-admin').then((m) => m.BusinessAdminPage)),
  signedIn('/admin/log', 'Admin Log', () => import('./pages/admin-log').then((m) => m.AdminLogPage)),
  signedIn('/checkout', 'Get Tokens', () => import('./pages/checkout').then((m) => m.CheckoutPage)),
  signedIn('/subscribe', 'Subscribe', () => import('./pages/subscribe').then((m) => m.SubscribePage)),
  signedIn('/history', 'History', () => import('./pages/history').then((m) => m.HistoryPage)),
  signedIn('/history/:id', 'Past Analysis', () => import('./pages/history-detail').then((m) => m.HistoryDetailPage)),
  signedIn('/jobs', 'Jobs', () => import('./pages/jobs').then((m) => m.JobsPage)),
  signedIn('/jobs/:id', 'Job', () => import('./pages/job').then((m) => m.JobPage)),
  signedIn('/schedule', 'Schedule', () => import('./pages/schedule').then((m) => m.SchedulePage)),
  signedIn('/invoices', 'Invoices', () => import('./pages/invoices').then((m) => m.InvoicesPage)),
  signedIn('/accuracy', 'Estimate Accuracy', () => import('./pages/accuracy').then((m) => m.AccuracyPage)),
];

/** A team invitation is opened once per person: its page loads on demand, outside the sign-in screens' first load. */
const JoinPage = lazy(() => import('./pages/join').then((m) => ({ default: m.JoinPage })));

/** The public screens; login and register send a signed-in person to their home instead. */
const PUBLIC_ROUTES: { path: string; title: string; Page: ComponentType; guestOnly?: boolean }[] = [
  { path: '/login', title: 'Sign In', Page: LoginPage, guestOnly: true },
  { path: '/register', title: 'Create Account', Page: RegisterPage, guestOnly: true },
  { path: '/forgot-password', title: 'Forgot Password', Page: ForgotPasswordPage },
  { path: '/reset-password', title: 'Reset Password', Page: ResetPasswordPage },
  { path: '/join/:token', title: 'Join a Team', Page: JoinPage },
];

const NOT_FOUND_TITLE = 'Page Not Found';

const SignedInShell = lazy(() =>
  import('./components/page-layout').then((m) => ({ default: m.SignedInShell })),
);

const RoleRefusal = lazy(() => import('./components/role-refusal').then((m) => ({ default: m.RoleRefusal })));

function mayUseRoute(role: TeamRole, path: string): boolean {
  const area = PAGE_AREAS[path];
  return !area || mayUse(role, area);
}

/**
 * A page whose part of the product the person's role may not use (core/permissions.ts PAGE_AREAS)
 * says who can instead of loading, so its requests are never made. The home page, for someone
 * whose home is elsewhere (a crew member's is My days), sends them there.
 */
function RoleGate({ path, Page }: { path: string; Page: ComponentType }) {
  const role = useRole();
  const area = PAGE_AREAS[path];
  if (!area || mayUse(role, area)) return <Page />;
  const home = homePathFor(role);
  if (path === '/' && home !== '/') return <Redirect to={home} replace />;
  return <RoleRefusal area={area} home={home} />;
}

/**
 * Every signed-in route renders this one component, so its frame (the header with the
 * credits badge) stays mounted from page to page and only the content area waits for a
 * page's code. Once a page is shown, the others' code loads while the browser is idle.
 */
function SignedInPages() {
  // Only the pages the person's role may use, once the session says which: a crew member's phone
  // never downloads and runs the office's pages (docs/performance.md, The crew's phone).
  const role = useSession().data?.member.role;
  useEffect(() => {
    if (!role) return;
    const load = () => SIGNED_IN_ROUTES.filter((route) => mayUseRoute(role, route.path)).forEach((route) => void route.preload());
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(load, { timeout: 3000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(load, 1000);
    return () => clearTimeout(id);
  }, [role]);

  return (
    <RequireSignedIn>
      <Suspense fallback={<FullPageSpinner />}>
        <SignedInShell>
          <Switch>
            {SIGNED_IN_ROUTES.map(({ path, Page }) => (
              <Route key={path} path={path}>
                <RoleGate path={path} Page={Page} />
              </Route>
            ))}
          </Switch>
        </SignedInShell>
      </Suspense>
    </RequireSignedIn>
  );
}

/**
 * docs/product.md, Screens: every screen and who may see it. /embed/{slug} is not here: the server
 * serves it as a small page of its own holding the <tree-estimator> element.
 */
export function AppRoutes() {
  const [location] = useLocation();
  const { parser } = useRouter();
  const me = useCurrentUser();
  const matches = (path: string) => matchRoute(parser, path, location)[0];
  const signedInRoute = SIGNED_IN_ROUTES.find((route) => matches(route.path));
  const publicRoute = signedInRoute ? undefined : PUBLIC_ROUTES.find((route) => matches(route.path));

  // A signed-out visitor on a signed-in route sees the login screen in its place (auth-gate.tsx).
  let title = NOT_FOUND_TITLE;
  if (signedInRoute) title = me.data === null ? 'Sign In' : signedInRoute.title;
  else if (publicRoute) title = publicRoute.title;
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);

  if (signedInRoute) return <SignedInPages />;
  if (!publicRoute) return <NotFoundPage />;
  const { Page, guestOnly } = publicRoute;
  return guestOnly ? (
    <GuestOnly>
      <Page />
    </GuestOnly>
  ) : (
    <Suspense fallback={<FullPageSpinner />}>
      <Page />
    </Suspense>
  );
}
