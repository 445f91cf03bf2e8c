import { CreditCard, RefreshCw } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import type { BillingConfig } from '../../../core/billing';
import { useBillingConfig } from '../../api/billing';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../alert';
import { Spinner } from '../spinner';
import { buttonStyles } from '../ui';
import { DemoCardForm } from './demo-card-form';
import { GrantCreditsHint } from './grant-credits-hint';
import type { CardFormProps } from './payment-flow';

function StripeModuleFailed() {
  return <ErrorAlert>The secure card form could not be loaded. Check your connection, then reload the page.</ErrorAlert>;
}

// Stripe's module (and, through it, js.stripe.com) loads only on a Stripe server.
const StripeCardForm = lazy(() =>
  import('./stripe-card-form').catch((error: unknown) => {
    console.error('The Stripe card form failed to load', error);
    return { default: StripeModuleFailed };
  }),
);

/** A server that takes payments: the demo form, or Stripe with its publishable key. */
export type PaymentSetup = { provider: 'demo' } | { provider: 'stripe'; publishableKey: string };

function paymentSetup(config: BillingConfig): PaymentSetup | null {
  if (config.provider === 'demo') return { provider: 'demo' };
  if (config.provider === 'stripe' && config.publishableKey) return { provider: 'stripe', publishableKey: config.publishableKey };
  return null;
}

export function PaymentsUnavailable() {
  return (
    <div role="status" className="flex flex-col items-center gap-2 rounded-xl border border-stone-200 bg-stone-50 px-4 py-8 text-center">
      <CreditCard aria-hidden="true" className="size-6 text-stone-600" />
      <p className="font-semibold text-stone-900">Payments are not available on this server</p>
      <p className="max-w-prose text-sm text-stone-700">
        The operator has not set up card payments yet, so credits cannot be bought here.
      </p>
      <GrantCreditsHint />
    </div>
  );
}

export function PaymentLoading({ label }: { label: string }) {
  return (
    <div className="flex flex-col items-center gap-3 py-10 text-center">
      <Spinner label={label} className="size-10" />
      <p aria-hidden="true" className="text-sm text-stone-700">
        {label}…
      </p>
    </div>
  );
}

/**
 * Reads GET /api/billing/config, then shows `children` with the payment setup, or why
 * there is nothing to pay with. Pages start a payment only inside it, so a server with
 * payments off is never asked to create one.
 */
export function WithPaymentSetup({
  children,
  frame = (content) => content,
}: {
  children: (setup: PaymentSetup) => ReactNode;
  /** Wraps what shows instead of `children` (loading, an error, payments off). */
  frame?: (content: ReactNode) => ReactNode;
}) {
  const config = useBillingConfig();
  if (config.isPending) return frame(<PaymentLoading label="Preparing secure payment" />);
  if (config.isError) {
    return frame(
      <div className="flex flex-col items-start gap-3">
        <ErrorAlert>{errorMessage(config.error, 'The payment options could not be loaded.')}</ErrorAlert>
        <button type="button" className={buttonStyles.secondary} onClick={() => void config.refetch()}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Try Again
        </button>
      </div>,
    );
  }
  const setup = paymentSetup(config.data);
  return setup ? children(setup) : frame(<PaymentsUnavailable />);
}

/** The card form for this server's provider (Stripe, or the demo form; docs/payments.md). */
export function CardForm({ setup, ...props }: CardFormProps & { setup: PaymentSetup }) {
  if (setup.provider === 'demo') return <DemoCardForm {...props} />;
  return (
    <Suspense fallback={<PaymentLoading label="Loading the secure card form" />}>
      <StripeCardForm publishableKey={setup.publishableKey} {...props} />
    </Suspense>
  );
}
