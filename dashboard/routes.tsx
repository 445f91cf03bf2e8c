import type { ComponentType } from 'react';
import { Route, Switch } from 'wouter';
import { GuestOnly, RequireSignedIn } from './components/auth-gate';
import { AdminLogPage } from './pages/admin-log';
import { BusinessAdminPage } from './pages/business-admin';
import { CheckoutPage } from './pages/checkout';
import { EmbedPage } from './pages/embed';
import { ForgotPasswordPage } from './pages/forgot-password';
import { HistoryPage } from './pages/history';
import { HistoryDetailPage } from './pages/history-detail';
import { HomePage } from './pages/home';
import { LoginPage } from './pages/login';
import { NotFoundPage } from './pages/not-found';
import { RegisterPage } from './pages/register';
import { ResetPasswordPage } from './pages/reset-password';
import { SettingsPage } from './pages/settings';
import { SubscribePage } from './pages/subscribe';

function signedIn(Page: ComponentType) {
  return function SignedInRoute() {
    return (
      <RequireSignedIn>
        <Page />
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

/** SPEC section 2: every screen and who may see it. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/" component={SignedInHome} />
      <Route path="/login" component={GuestLogin} />
      <Route path="/register" component={GuestRegister} />
      <Route path="/forgot-password" component={ForgotPasswordPage} />
      <Route path="/reset-password" component={ResetPasswordPage} />
      <Route path="/embed/:slug" component={EmbedPage} />
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
