import { CreditCard } from 'lucide-react';
import { formatGbp } from '../../core/money';
import { UNLIMITED_PASS_DAYS, UNLIMITED_PASS_PRICE_PENCE } from '../../core/plans';
import { BackLink, ComingSoonCard, PageTitle, SignedInLayout } from '../components/page-layout';

/** The one-time payment (SPEC section 2, DECISIONS): the payment form arrives in a later issue. */
export function CheckoutPage() {
  const price = formatGbp(UNLIMITED_PASS_PRICE_PENCE);
  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink />
      </div>
      <PageTitle
        title="Unlock TreeAnalyzer Pro"
        subtitle={`Unlimited analyses for ${UNLIMITED_PASS_DAYS} days, one payment of ${price}.`}
      />
      <ComingSoonCard icon={<CreditCard aria-hidden="true" className="size-6" />} title="Secure card payment">
        Card payments are coming soon. In the meantime, a monthly plan will give you credits.
      </ComingSoonCard>
    </SignedInLayout>
  );
}
