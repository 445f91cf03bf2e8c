import { ScrollText } from 'lucide-react';
import { BackLink, ComingSoonCard, PageTitle, SignedInLayout } from '../components/page-layout';

/** Account logging (SPEC section 2): the server enforces the admin role; the page says so. */
export function AdminLogPage() {
  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink />
      </div>
      <PageTitle title="Account Logging" subtitle="This page is restricted to admin users." />
      <ComingSoonCard icon={<ScrollText aria-hidden="true" className="size-6" />} title="Account log">
        Soon admins can write a summary of every account to the server log from here.
      </ComingSoonCard>
    </SignedInLayout>
  );
}
