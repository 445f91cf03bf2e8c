import { Check, Infinity as InfinityIcon, RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { DEFAULT_PASS_DAILY_CAP } from '../../core/billing';
import { formatGbp } from '../../core/money';
import { UNLIMITED_PASS_DAYS, UNLIMITED_PASS_PRICE_PENCE } from '../../core/plans';
import { useBillingConfig, useRecordPayment, useStartPaymentOnce } from '../api/billing';
import { signedInApi } from '../api/signed-in';
import { useSettlingTokens, useUserTokens } from '../api/credits';
import { formatBillingDate } from '../components/billing/billing-date';
import { CardForm, PaymentLoading, WithPaymentSetup, type PaymentSetup } from '../components/billing/card-form';
import { PaymentResult, PaymentSettling, ResultCard, SuccessCheckFailed } from '../components/billing/payment-result';
import { useProviderReturn } from '../components/billing/provider-return';
import { BackLink, SignedInLayout } from '../components/page-layout';
import { buttonStyles, cardStyles } from '../components/ui';

const SUCCESS_PATH = '/checkout?success=true';
const TITLE = 'Unlock TreeAnalyzer Pro';

/** Until the card can show, the page still has its heading (for screen readers) and a way back. */
function WaitingFrame({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6">
      <h1 className="sr-only">{TITLE}</h1>
      {children}
      <div className="flex justify-center">
        <BackLink />
      </div>
    </div>
  );
}

function usePassDailyCap(): number {
  return useBillingConfig().data?.passDailyCap ?? DEFAULT_PASS_DAILY_CAP;
}

/** What the one-time payment buys (a 30-day Unlimited pass with a daily fair-use cap; docs/product.md, Credits and payments). */
function PassBenefits() {
  const dailyCap = usePassDailyCap();
  const benefits = [
    `Unlimited analyses for ${UNLIMITED_PASS_DAYS} days`,
    `Fair use: up to ${dailyCap} analyses a day`,
    'No credits used while the pass runs',
    'One payment: it does not renew',
  ];
  return (
    <ul className="flex flex-col gap-2 text-sm text-stone-800">
      {benefits.map((benefit) => (
        <li key={benefit} className="flex items-start gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-700" />
          {benefit}
        </li>
      ))}
    </ul>
  );
}

/** Checkout: the card appears once the payment's secret has arrived. */
function CheckoutPayment({ setup }: { setup: PaymentSetup }) {
  const [, navigate] = useLocation();
  const tokens = useUserTokens();
  const record = useRecordPayment();
  // A failure to create the payment is only logged; the user gets a quiet retry.
  const payment = useStartPaymentOnce(true, {
    mutationFn: signedInApi.billing.createPaymentIntent,
    onError: (error) => console.error('Could not create the payment intent', error),
  });
  const price = formatGbp(UNLIMITED_PASS_PRICE_PENCE);

  if (payment.isError) {
    return (
      <WaitingFrame>
        <div className="flex flex-col items-center gap-3 py-10 text-center">
          <p className="max-w-prose text-stone-700">The payment form is taking longer than expected to load.</p>
          <button type="button" className={buttonStyles.secondary} onClick={payment.restart}>
            <RefreshCw aria-hidden="true" className="size-4" />
            Try Again
          </button>
        </div>
      </WaitingFrame>
    );
  }
  if (!payment.data) {
    return (
      <WaitingFrame>
        <PaymentLoading label="Preparing secure payment" />
      </WaitingFrame>
    );
  }

  const passEndsAt = tokens.data?.passEndsAt;
  return (
    <section aria-labelledby="checkout-title" className={`${cardStyles} mx-auto flex max-w-xl flex-col gap-5 p-5 sm:p-8`}>
      <div className="flex items-start gap-3">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-green-100 text-green-800">
          <InfinityIcon aria-hidden="true" className="size-6" />
        </span>
        <div>
          <h1 id="checkout-title" className="text-2xl font-bold tracking-tight text-green-900 sm:text-3xl">
            {TITLE}
          </h1>
          <p className="mt-1 text-stone-700">
            <span className="font-semibold text-stone-900">{price}</span> once, for {UNLIMITED_PASS_DAYS} days of
            unlimited analyses.
          </p>
        </div>
      </div>
      <PassBenefits />
      {passEndsAt ? (
        <p className="rounded-lg bg-green-50 px-3 py-2 text-sm text-green-900">
          Your Unlimited pass runs until {formatBillingDate(passEndsAt)}. Paying again adds {UNLIMITED_PASS_DAYS} days
          after that.
        </p>
      ) : null}
      <CardForm
        setup={setup}
        clientSecret={payment.data.clientSecret}
        submitLabel={`Pay ${price}`}
        submittingLabel="Processing Payment..."
        returnUrl={new URL(SUCCESS_PATH, window.location.origin).href}
        onPaid={async (paymentIntentId) => {
          await record.mutateAsync({ paymentType: 'one_time', paymentIntentId });
          navigate(SUCCESS_PATH, { replace: true });
        }}
      />
      <div className="flex justify-center">
        <BackLink />
      </div>
    </section>
  );
}

/**
 * The success view says what the server says: "Payment Successful!" only with an
 * Unlimited pass on the account; opened with nothing paid it says so. A payment the bank is still
 * clearing (Stripe's redirect_status=processing) is asked after for 15 s by useProviderReturn.
 */
function CheckoutSuccess() {
  const dailyCap = usePassDailyCap();
  const providerReturn = useProviderReturn('one_time');
  const settled = useSettlingTokens(() => false);
  if (providerReturn !== 'none' && providerReturn !== 'recorded') {
    return <PaymentResult title="Payment Successful!" providerReturn={providerReturn} retryHref="/checkout">{null}</PaymentResult>;
  }
  const tokens = settled.tokens.data;
  if (!settled.fresh || !tokens) {
    if (settled.tokens.isError) return <SuccessCheckFailed retry={settled.checkAgain} />;
    return <PaymentSettling />;
  }
  if (!tokens.unlimited || !tokens.passEndsAt) {
    return (
      <ResultCard
        icon="none"
        title="No Payment Found"
        actions={
          <Link href="/checkout" className={buttonStyles.primary}>
            Go to Checkout
          </Link>
        }
      >
        <p>There is no Unlimited pass on your account, so nothing was charged.</p>
      </ResultCard>
    );
  }
  return (
    <PaymentResult title="Payment Successful!" providerReturn={providerReturn} retryHref="/checkout">
      <p>
        Your Unlimited pass is active until {formatBillingDate(tokens.passEndsAt)}. Analyses use no credits while it runs, up
        to {dailyCap} a day.
      </p>
    </PaymentResult>
  );
}

/** The one-time payment, /checkout (success=true shows the success view). */
export function CheckoutPage() {
  const [params] = useSearchParams();
  const success = params.get('success') === 'true';
  return (
    <SignedInLayout>
      {success ? (
        <CheckoutSuccess />
      ) : (
        <WithPaymentSetup frame={(content) => <WaitingFrame>{content}</WaitingFrame>}>
          {(setup) => <CheckoutPayment setup={setup} />}
        </WithPaymentSetup>
      )}
    </SignedInLayout>
  );
}
