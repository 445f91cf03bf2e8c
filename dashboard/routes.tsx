import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Switch } from 'wouter';
import { GuestOnly, RequireSignedIn } from './components/auth-gate';
import { FullPageSpinner } from './components/spinner';
import { ForgotPasswordPage } from './pages/forgot-password';
import { LoginPage } from './pages/login';
import { NotFoundPage } from './pages/not-found';
import { RegisterPage } from './pages/register';
import { ResetPasswordPage } from './pages/reset-password';

/*
 * Signed-in pages load on demand, so the sign-in screens (what a visitor sees first)
 * download only the code they need.
 */
const HomePage = lazy(() => import('./pages/home').then((m) => ({ default: m.HomePage })));
const SettingsPage = lazy(() => import('./pages/settings').then((m) => ({ default: m.SettingsPage })));
const BusinessAdminPage = lazy(() => import('./pages/business-admin').then((m) => ({ default: m.BusinessAdminPage })));
const AdminLogPage = lazy(() => import('./pages/admin-log').then((m) => ({ default: m.AdminLogPage })));
const CheckoutPage = lazy(() => import('./pages/checkout').then((m) => ({ default: m.CheckoutPage })));
const SubscribePage = lazy(() => import('./pages/subscribe').then((m) => ({ default: m.SubscribePage })));
const HistoryPage = lazy(() => import('./pages/history').then((m) => ({ default: m.HistoryPage })));
const HistoryDetailPage = lazy(() => import('./pages/history-detail').then((m) => ({ default: m.HistoryDetailPage })));

function signedIn(Page: ComponentType) {
  return function SignedInRoute() {
    return (
      <RequireSignedIn>
        <Suspense fallback={<FullPageSpinner />}>
          <Page />
        </Suspense>
      </RequireSignedIn>
    );
  };
}

function guestOnly(Page: ComponentType) {
  return function GuestOnlyRoute() {
    return (
      <GuestOnly>
        <Page />
      </GuestOnly>
    );
  };
}

// Built once, so a route's page keeps its state while the app re-renders.
const SignedInHome = signedIn(HomePage);
const GuestLogin = guestOnly(LoginPage);
const GuestRegister = guestOnly(RegisterPage);
const SignedInSettings = signedIn(SettingsPage);
const SignedInBusinessAdmin = signedIn(BusinessAdminPage);
const SignedInAdminLog = signedIn(AdminLogPage);
const SignedInCheckout = signedIn(CheckoutPage);
const SignedInSubscribe = signedIn(SubscribePage);
const SignedInHistory = signedIn(HistoryPage);
const SignedInHistoryDetail = signedIn(HistoryDetailPage);

/**
 * SPEC section 2: every screen and who may see it. /embed/{slug} is not here: the server
 * serves it as a small page of its own holding the <tree-estimator> element.
 */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/" component={SignedInHome} />
      <Route path="/login" component={GuestLogin} />
      <Route path="/register" component={GuestRegister} />
      <Route path="/forgot-password" component={ForgotPasswordPage} />
      <Route path="/reset-password" component={ResetPasswordPage} />
      <Route path="/settings" component={SignedInSettings} />
      <Route path="/admin/businesses" component={SignedInBusinessAdmin} />
      <Route path="/admin/log" component={SignedInAdminLog} />
      <Route path="/checkout" component={SignedInCheckout} />
      <Route path="/subscribe" component={SignedInSubscribe} />
      <Route path="/history" component={SignedInHistory} />
      <Route path="/history/:id" component={SignedInHistoryDetail} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}
