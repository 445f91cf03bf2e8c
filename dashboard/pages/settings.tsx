import { SlidersHorizontal } from 'lucide-react';
import { BackLink, ComingSoonCard, PageTitle, SignedInLayout } from '../components/page-layout';

/** AI settings (SPEC section 2): custom instructions and the hourly rate arrive in a later issue. */
export function SettingsPage() {
  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink />
      </div>
      <PageTitle title="AI Settings" subtitle="Tune how your trees are analysed and priced." />
      <ComingSoonCard icon={<SlidersHorizontal aria-hidden="true" className="size-6" />} title="Custom instructions and hourly rate">
        Soon you can give the AI your own analysis instructions and set the hourly rate (in £) used for cost estimates.
      </ComingSoonCard>
    </SignedInLayout>
  );
}
