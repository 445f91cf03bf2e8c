import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { formatGbp } from '../../core/money';
import { hasActiveSubscription } from '../../core/billing';
import { PLANS, resolvePlan, type Plan } from '../../core/plans';
import { useRecordPayment, useStartPaymentOnce } from '../api/billing';
import { errorMessage } from '../api/client';
import { signedInApi } from '../api/signed-in';
import { useSettlingTokens } from '../api/credits';
import { PlanFeatures, PlanPrice } from '../components/analysis/plan-section';
import { formatBillingDate } from '../components/billing/billing-date';
import { CardForm, PaymentLoading, WithPaymentSetup, type PaymentSetup } from '../components/billing/card-form';
import { PaymentResult, PaymentSettling, ResultCard, SuccessCheckFailed } from '../components/billing/payment-result';
import { useProviderReturn } from '../components/billing/provider-return';
import { BackLink, SignedInLayout } from '../components/page-layout';
import { showErrorToast } from '../components/toast';
import { buttonStyles, cardStyles, linkStyles } from '../components/ui';

/** The message when the subscription cannot be created. */
const SUBSCRIPTION_ERROR_FALLBACK = 'Failed to initialize subscription. Please try again.';
const ALREADY_ACTIVE_TEXT = 'already have an active subscription';
/** After "already subscribed" the user goes home after 3 s (docs/product.md, Messages). */
const ALREADY_ACTIVE_REDIRECT_MS = 3000;

const successPath = (plan: Plan) => `/subscribe?plan=${plan.id}&success=true`;

/** Subscribe: the plan's name, credits, features, monthly price and the no-commitment line. */
function PlanSummary({ plan }: { plan: Plan }) {
  return (
    <section aria-labelledby="subscribe-title" className={`${cardStyles} flex flex-col gap-4 p-5 sm:p-6`}>
      <div>
        <h1 id="subscribe-title" className="text-2xl font-bold tracking-tight text-green-900 sm:text-3xl">
          {plan.name} Monthly
        </h1>
        <p className="mt-1 text-stone-700">Billed monthly. Credits refill each month and do not carry over.</p>
      </div>
      <PlanPrice plan={plan}>
        {plan.discountLabel ? (
          <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-bold text-amber-900">{plan.discountLabel}</span>
        ) : null}
      </PlanPrice>
      <PlanFeatures plan={plan} />
      <p className="border-t border-stone-200 pt-4 text-sm font-medium text-stone-800">
        Cancel anytime. No long-term commitments.
      </p>
    </section>
  );
}

/** Goes home a few seconds after "Subscription Already Active", unless the user leaves first. */
function AlreadyActive() {
  const [, navigate] = useLocation();
  useEffect(() => {
    const timer = setTimeout(() => navigate('/'), ALREADY_ACTIVE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <div className="flex flex-col items-start gap-2 py-4">
      <p className="text-stone-800">
        You already have an active subscription. Taking you home, where the plan cards let you switch plans…
      </p>
      <Link href="/" className={linkStyles}>
        Go to Home now
      </Link>
    </div>
  );
}

/** The card form, once the subscription is created (on arrival, once). */
function SubscriptionPayment({ plan, setup }: { plan: Plan; setup: PaymentSetup }) {
  const [, navigate] = useLocation();
  const record = useRecordPayment();
  const [alreadyActive, setAlreadyActive] = useState(false);
  const subscription = useStartPaymentOnce(true, {
    mutationFn: () => signedInApi.billing.createSubscription(plan.id),
    onError: (error) => {
      const message = errorMessage(error, SUBSCRIPTION_ERROR_FALLBACK);
      if (message.includes(ALREADY_ACTIVE_TEXT)) {
        showErrorToast({ title: 'Subscription Already Active', description: message });
        setAlreadyActive(true);
      } else {
        showErrorToast({ title: 'Subscription Error', description: message });
      }
    },
  });

  if (alreadyActive) return <AlreadyActive />;
  if (subscription.isError) {
    return (
      <div className="flex flex-col items-start gap-3 py-4">
        <p className="text-stone-800">{errorMessage(subscription.error, SUBSCRIPTION_ERROR_FALLBACK)}</p>
        <button type="button" className={buttonStyles.secondary} onClick={subscription.restart}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Try Again
        </button>
      </div>
    );
  }
  if (!subscription.data) return <PaymentLoading label="Preparing secure payment" />;

  return (
    <CardForm
      setup={setup}
      clientSecret={subscription.data.clientSecret}
      submitLabel={`Subscribe for ${formatGbp(plan.pricePence)} a month`}
      submittingLabel="Processing Payment..."
      returnUrl={new URL(successPath(plan), window.location.origin).href}
      onPaid={async (paymentIntentId) => {
        await record.mutateAsync({ subscriptionType: plan.id, paymentType: 'monthly', paymentIntentId });
        navigate(successPath(plan), { replace: true });
      }}
    />
  );
}

/**
 * The success view says what the server says: the plan that is really active and the
 * credits really there; while the subscription is still incomplete (the payment's confirmation
 * or webhook not in yet) it waits, asking every second for 15 s; with no paid subscription it
 * says so and charges nothing.
 */
function SubscriptionSuccess({ plan }: { plan: Plan }) {
  const providerReturn = useProviderReturn('monthly', plan.id);
  const settled = useSettlingTokens((t) => t.subscriptionStatus === 'incomplete');
  const retryHref = `/subscribe?plan=${plan.id}`;
  if (providerReturn !== 'none' && providerReturn !== 'recorded') {
    return <PaymentResult title="Subscription Active!" providerReturn={providerReturn} retryHref={retryHref}>{null}</PaymentResult>;
  }
  const tokens = settled.tokens.data;
  if (!settled.fresh || !tokens) {
    if (settled.tokens.isError) return <SuccessCheckFailed retry={settled.checkAgain} />;
    return <PaymentSettling />;
  }
  if (settled.waiting) return <PaymentSettling />;
  if (settled.gaveUp) {
    return (
      <ResultCard
        icon="wait"
        title="Payment Not Confirmed Yet"
        actions={
          <button type="button" className={buttonStyles.primary} onClick={settled.checkAgain}>
            <RefreshCw aria-hidden="true" className="size-4" />
            Check Again
          </button>
        }
      >
        <p>
          Your subscription has not been paid yet. If you just paid, the confirmation can take a few minutes: check again
          shortly. If you did not, nothing was charged.
        </p>
      </ResultCard>
    );
  }
  const active = hasActiveSubscription(tokens.subscriptionStatus) && tokens.subscriptionType ? PLANS[tokens.subscriptionType] : null;
  if (!active) {
    return (
      <ResultCard
        icon="none"
        title="No Subscription Found"
        actions={
          <Link href={retryHref} className={buttonStyles.primary}>
            Choose a Plan
          </Link>
        }
      >
        <p>There is no paid subscription on your account, so nothing was charged. You can subscribe to a plan at any time.</p>
      </ResultCard>
    );
  }
  return (
    <PaymentResult title="Subscription Active!" providerReturn={providerReturn} retryHref={retryHref}>
      <p>
        Your {active.name} plan is active: you have {tokens.tokensRemaining} credits to use.
        {tokens.nextRefillDate && !tokens.cancelAt ? ` They refill to ${active.creditsPerMonth} on ${formatBillingDate(tokens.nextRefillDate)}.` : ''}
      </p>
    </PaymentResult>
  );
}

/** A monthly plan, /subscribe?plan=lite|standard|pro (default and fallback Lite; docs/product.md, Screens). */
export function SubscribePage() {
  const [params] = useSearchParams();
  const plan = resolvePlan(params.get('plan'));
  const success = params.get('success') === 'true';
  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink />
      </div>
      {success ? (
        <SubscriptionSuccess plan={plan} />
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <PlanSummary plan={plan} />
          <section aria-labelledby="payment-title" className={`${cardStyles} flex flex-col gap-4 p-5 sm:p-6`}>
            <h2 id="payment-title" className="text-lg font-semibold text-stone-900">
              Payment Details
            </h2>
            <WithPaymentSetup>
              {/* Keyed by plan: another plan is another subscription to create. */}
              {(setup) => <SubscriptionPayment key={plan.id} plan={plan} setup={setup} />}
            </WithPaymentSetup>
          </section>
        </div>
      )}
    </SignedInLayout>
  );
}
