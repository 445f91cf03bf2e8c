import { LoaderCircle, Lock, RefreshCw } from 'lucide-react';
import { useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../alert';
import { dismissToasts, showErrorToast } from '../toast';
import { buttonStyles } from '../ui';

/** What every card form needs from its page (the payment and the subscription forms). */
export interface CardFormProps {
  clientSecret: string;
  /** The button's name while idle, e.g. "Pay £29.99". */
  submitLabel: string;
  /** The button's name while the payment runs ("Processing Payment..."). */
  submittingLabel: string;
  /** Where Stripe sends the user back after a redirect-based payment method. */
  returnUrl: string;
  /**
   * Records a payment the provider says succeeded (POST /api/payment-success), then
   * moves on to the success view. Rejects when recording failed.
   */
  onPaid: (paymentIntentId: string) => Promise<void>;
}

/** The provider's answer to a confirm: the payment's id, or why it failed in words for the user. */
export type ConfirmOutcome = { paymentIntentId: string } | { failure: string };

/** The money moved but the product could not record it. */
export const PROCESSING_FAILED = {
  title: 'Payment Succeeded, Processing Failed',
  description:
    'Your payment was successful but there was an issue activating your subscription. Please contact support.',
};

const PAYMENT_FAILED_FALLBACK = 'Your payment could not be completed. Please try again.';

type Phase =
  | { name: 'idle' }
  | { name: 'submitting' }
  /** Paid, but recording failed: never ask for the card again, only retry the recording. */
  | { name: 'unrecorded'; paymentIntentId: string }
  | { name: 'done' };

/**
 * The states shared by both card forms: idle, submitting, success. A failed
 * card shows "Payment Failed" with the provider's message and gives the form back.
 */
export function usePaymentFlow(onPaid: CardFormProps['onPaid']) {
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  // A second Enter before React re-renders must not confirm twice.
  const busy = useRef(false);

  async function record(paymentIntentId: string) {
    setPhase({ name: 'submitting' });
    try {
      await onPaid(paymentIntentId);
      setPhase({ name: 'done' });
    } catch {
      showErrorToast(PROCESSING_FAILED);
      setPhase({ name: 'unrecorded', paymentIntentId });
    }
  }

  async function submit(confirm: () => Promise<ConfirmOutcome>): Promise<void> {
    if (busy.current || phase.name !== 'idle') return;
    busy.current = true;
    setPhase({ name: 'submitting' });
    try {
      let outcome: ConfirmOutcome;
      try {
        outcome = await confirm();
      } catch (error) {
        outcome = { failure: errorMessage(error, PAYMENT_FAILED_FALLBACK) };
      }
      if ('failure' in outcome) {
        showErrorToast({ title: 'Payment Failed', description: outcome.failure || PAYMENT_FAILED_FALLBACK });
        setPhase({ name: 'idle' });
        return;
      }
      dismissToasts();
      await record(outcome.paymentIntentId);
    } finally {
      busy.current = false;
    }
  }

  function retryRecording() {
    if (phase.name === 'unrecorded' && !busy.current) {
      busy.current = true;
      void record(phase.paymentIntentId).finally(() => {
        busy.current = false;
      });
    }
  }

  return { phase: phase.name, submit, retryRecording };
}

export type PaymentFlow = ReturnType<typeof usePaymentFlow>;

/**
 * The form's submit button and, once paid but not recorded, the way to retry recording
 * (the payment-success call is idempotent, so retrying never charges twice).
 */
export function PaymentActions({
  flow,
  submitLabel,
  submittingLabel,
  disabled = false,
}: {
  flow: PaymentFlow;
  submitLabel: string;
  submittingLabel: string;
  /** The provider's form is not ready yet. */
  disabled?: boolean;
}) {
  if (flow.phase === 'unrecorded') {
    return (
      <div className="flex flex-col gap-3">
        <ErrorAlert>{PROCESSING_FAILED.description}</ErrorAlert>
        <button type="button" className={`${buttonStyles.secondary} w-full`} onClick={flow.retryRecording}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Retry Activation
        </button>
      </div>
    );
  }
  const busy = flow.phase === 'submitting' || flow.phase === 'done';
  return (
    <button
      type="submit"
      className={`${buttonStyles.primary} w-full py-3 text-base`}
      disabled={busy || disabled}
      aria-busy={busy || undefined}
    >
      {busy ? (
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
      ) : (
        <Lock aria-hidden="true" className="size-5" />
      )}
      {busy ? submittingLabel : submitLabel}
    </button>
  );
}
