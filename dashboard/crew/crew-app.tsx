import { lazy, useEffect, type ComponentType } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { useCurrentUser } from '../api/session';
import { GuestOnly, LoginScreen, RequireSignedIn } from '../components/auth-gate';
import { documentTitle } from '../components/document-title';
import { SignedInShell } from '../components/page-layout';
import { FullPageSpinner } from '../components/spinner';
import { MyDaysPage } from './my-days-page';

/**
 * The job sheet, with its schemas and cards, loads on its own: My days is what the phone shows
 * first. It is asked for once My days is on screen (my-days-page.tsx keeps the week's sheets), and
 * the service worker keeps it for use without signal.
 */
const loadJobSheet = () => import('./job-sheet-page');
const JobSheetPage = lazy(() => loadJobSheet().then((m) => ({ default: m.JobSheetPage })));

/** The crew's screens (docs/product.md, The crew's day), with the titles the office's app gives them (routes.tsx). */
const CREW_ROUTES: { path: string; title: string; Page: ComponentType }[] = [
  { path: '/my-days', title: 'My days', Page: MyDaysPage },
  { path: '/my-days/jobs/:id', title: 'Job sheet', Page: JobSheetPage },
];

/**
 * Any other address (Logout's sign-in screen aside, below) belongs to the office's app: the page is
 * loaded afresh, and the server answers it with the office's app (server/http/dashboard.ts). An
 * owner who opened My days and follows Settings in the header goes there this way.
 */
function ToOfficeApp() {
  const [location] = useLocation();
  useEffect(() => {
    window.location.replace(`${location}${window.location.search}${window.location.hash}`);
  }, [location]);
  return <FullPageSpinner />;
}

function useTitle(title: string) {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}

function CrewScreen({ title, Page }: { title: string; Page: ComponentType }) {
  const me = useCurrentUser();
  useTitle(me.data === null ? 'Sign In' : title);
  return (
    <RequireSignedIn>
      <SignedInShell>
        <Page />
      </SignedInShell>
    </RequireSignedIn>
  );
}

function SignIn() {
  useTitle('Sign In');
  return (
    <GuestOnly>
      <LoginScreen />
    </GuestOnly>
  );
}

/**
 * The crew's app: My days and the job sheets in the signed-in frame every screen has, on a page of
 * their own (dashboard/crew.html) so a phone on a slow signal loads only them (docs/performance.md,
 * The crew's phone). Signed out, the sign-in screen shows in place as in the office's app
 * (auth-gate.tsx, its code asked for then); after a sign-in here a crew member stays (their home is
 * My days), anyone else goes on to the office's app.
 */
export function CrewApp() {
  return (
    <Switch>
      {CREW_ROUTES.map(({ path, title, Page }) => (
        <Route key={path} path={path}>
          <CrewScreen title={title} Page={Page} />
        </Route>
      ))}
      <Route path="/login">
        <SignIn />
      </Route>
      <Route>
        <ToOfficeApp />
      </Route>
    </Switch>
  );
}
