import { CalendarCheck } from 'lucide-react';
import { useSearchParams } from 'wouter';
import { formatGbp } from '../../core/money';
import { resolvePlan } from '../../core/plans';
import { BackLink, ComingSoonCard, PageTitle, SignedInLayout } from '../components/page-layout';

/** A monthly plan, /subscribe?plan=lite|standard|pro (default and fallback Lite, SPEC section 9). */
export function SubscribePage() {
  const [params] = useSearchParams();
  const plan = resolvePlan(params.get('plan'));
  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink />
      </div>
      <PageTitle
        title={`${plan.name} Monthly`}
        subtitle={`${plan.creditsPerMonth} credits every month for ${formatGbp(plan.pricePence)} a month.`}
      />
      <ComingSoonCard icon={<CalendarCheck aria-hidden="true" className="size-6" />} title="Monthly subscription">
        <p>Subscriptions are coming soon.</p>
        <p className="mt-2">Cancel anytime. No long-term commitments.</p>
      </ComingSoonCard>
    </SignedInLayout>
  );
}
