import { Building2 } from 'lucide-react';
import { BackLink, ComingSoonCard, PageTitle, SignedInLayout } from '../components/page-layout';

/** Business Admin (SPEC section 2): embeddable estimators for businesses arrive in a later issue. */
export function BusinessAdminPage() {
  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink />
      </div>
      <PageTitle title="Business Admin" subtitle="Embed the estimator on your own website." />
      <ComingSoonCard icon={<Building2 aria-hidden="true" className="size-6" />} title="Embeddable estimators">
        Soon you can create a business configuration with a locked hourly rate and custom AI instructions, then copy
        an embed code for your website.
      </ComingSoonCard>
    </SignedInLayout>
  );
}
