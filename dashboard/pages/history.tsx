import { History } from 'lucide-react';
import { BackLink, ComingSoonCard, PageTitle, SignedInLayout } from '../components/page-layout';

export function HistoryPage() {
  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink />
      </div>
      <PageTitle title="Analysis History" subtitle="Your past tree analyses and estimates." />
      <ComingSoonCard icon={<History aria-hidden="true" className="size-6" />} title="Past analyses">
        Soon you can look back at every tree you have analysed, with its estimate and report.
      </ComingSoonCard>
    </SignedInLayout>
  );
}
