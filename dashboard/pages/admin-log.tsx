import { ShieldAlert } from 'lucide-react';
import { ADMIN_ONLY_MESSAGE } from '../../core/admin';
import { useCurrentUser } from '../api/session';
import { AccountsSection } from '../components/admin/accounts-table';
import { ConsoleLogCard } from '../components/admin/console-log-card';
import { SignInsSection } from '../components/admin/sign-ins-list';
import { BackLink, PageTitle, SignedInLayout } from '../components/page-layout';
import { cardStyles } from '../components/ui';

/**
 * A signed-in user who is not an admin is told so, and given no button: the server answers
 * every admin call from them with 403 FORBIDDEN (docs/product.md, Accounts), so a button could only
 * fail. Should an admin be demoted while the page is open, the button's 403 shows the
 * "Error" toast and the page re-reads the user and turns into this notice.
 */
function RestrictedNotice() {
  return (
    <section className={`${cardStyles} flex flex-col items-center gap-3 px-6 py-12 text-center`}>
      <span className="flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-900">
        <ShieldAlert aria-hidden="true" className="size-6" />
      </span>
      <h2 className="text-lg font-semibold text-stone-900">Admin access required</h2>
      <p className="max-w-prose text-sm text-stone-700">
        {ADMIN_ONLY_MESSAGE} Ask whoever runs this TreeAnalyzer Pro server if you need access.
      </p>
    </section>
  );
}

/** Account logging (docs/product.md, Help assistant and admin log): the server enforces the admin role; the page says so. */
export function AdminLogPage() {
  const { data: user } = useCurrentUser();
  const isAdmin = user?.role === 'admin';
  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink />
      </div>
      <PageTitle
        title="Account Logging"
        subtitle={isAdmin ? 'Write every account to the server log, or look one up below.' : undefined}
      />
      {isAdmin ? (
        <div className="flex flex-col gap-6">
          <ConsoleLogCard />
          <AccountsSection />
          <SignInsSection />
        </div>
      ) : (
        <RestrictedNotice />
      )}
    </SignedInLayout>
  );
}
