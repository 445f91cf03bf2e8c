import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
// The "pure" entry adds Stripe's script only when loadStripe is called, not on import.
import type { Appearance, Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useEffect, useState } from 'react';
import { ErrorAlert } from '../alert';
import { Spinner } from '../spinner';
import { PaymentActions, usePaymentFlow, type CardFormProps, type ConfirmOutcome } from './payment-flow';

/**
 * The Stripe card form (the provider's script and its confirm-payment call).
 * This module is loaded on demand, only when the server runs Stripe, so the demo and
 * payments-off paths never fetch js.stripe.com.
 */

const STRIPE_LOAD_FAILED = 'The secure card form could not be loaded. Check your connection, then reload the page.';

// One Stripe object per key for the page's life, as Stripe asks (loadStripe once).
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    // A failed load may be a passing network fault: the next attempt tries again.
    stripe.catch(() => stripes.delete(publishableKey));
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

/** The dashboard's green and radius, so the card fields match the page. */
const APPEARANCE: Appearance = {
  theme: 'stripe',
  variables: { colorPrimary: '#166534', colorText: '#1c1917', colorDanger: '#b91c1c', borderRadius: '8px' },
};

function StripePaymentFields({ submitLabel, submittingLabel, returnUrl, onPaid }: CardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const flow = usePaymentFlow(onPaid);

  async function confirm(): Promise<ConfirmOutcome> {
    if (!stripe || !elements) return { failure: STRIPE_LOAD_FAILED };
    // Only redirect-based methods leave the page; cards (with 3-D Secure) finish here.
    const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl }, redirect: 'if_required' });
    if (result.error) return { failure: result.error.message ?? '' };
    if (result.paymentIntent.status === 'succeeded') return { paymentIntentId: result.paymentIntent.id };
    if (result.paymentIntent.status === 'processing') {
      return { failure: 'Your bank is still processing this payment. Please check back shortly before paying again.' };
    }
    return { failure: '' };
  }

  return (
    <form
      aria-label="Card payment"
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        void flow.submit(confirm);
      }}
    >
      {loadError ? <ErrorAlert>{loadError}</ErrorAlert> : null}
      {!ready && !loadError ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading the secure card form" />
        </div>
      ) : null}
      <PaymentElement
        options={{ layout: 'tabs', readOnly: flow.phase !== 'idle' }}
        onReady={() => setReady(true)}
        onLoadError={() => setLoadError(STRIPE_LOAD_FAILED)}
      />
      <PaymentActions
        flow={flow}
        submitLabel={submitLabel}
        submittingLabel={submittingLabel}
        disabled={!ready || !stripe || !elements}
      />
    </form>
  );
}

export default function StripeCardForm(props: CardFormProps & { publishableKey: string }) {
  const { publishableKey, ...formProps } = props;
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    stripeFor(publishableKey).then(
      (loaded) => {
        if (!current) return;
        if (loaded) setStripe(loaded);
        else setFailed(true);
      },
      (error: unknown) => {
        console.error('Stripe.js failed to load', error);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [publishableKey]);

  if (failed) return <ErrorAlert>{STRIPE_LOAD_FAILED}</ErrorAlert>;
  if (!stripe) {
    return (
      <div className="flex justify-center py-6">
        <Spinner label="Loading the secure card form" />
      </div>
    );
  }
  return (
    <Elements stripe={stripe} options={{ clientSecret: formProps.clientSecret, appearance: APPEARANCE, locale: 'en-GB' }}>
      <StripePaymentFields {...formProps} />
    </Elements>
  );
}
