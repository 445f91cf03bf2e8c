import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'wouter';
import type { PaymentType } from '../../../core/billing';
import type { SubscriptionType } from '../../../core/credits';
import { useRecordPayment } from '../../api/billing';
import { isApiError } from '../../api/client';
import { SETTLE_LIMIT_MS, SETTLE_POLL_MS } from '../../api/credits';
import { showErrorToast } from '../toast';
import { PROCESSING_FAILED } from './payment-flow';

export type ProviderReturn = 'none' | 'recording' | 'recorded' | 'unrecorded' | 'failed' | 'processing';

/**
 * A redirect-based payment method (a bank page, not a card) sends the user back to the
 * success URL with ?payment_intent=...&redirect_status=... (Stripe's return_url). The
 * payment is then recorded here, once, exactly as after an in-page confirm; the server
 * checks it with Stripe and applies it only once, whatever the URL says.
 */
export function useProviderReturn(paymentType: PaymentType, subscriptionType?: SubscriptionType): ProviderReturn {
  const [params] = useSearchParams();
  const paymentIntentId = params.get('payment_intent');
  const redirectStatus = params.get('redirect_status');
  const record = useRecordPayment();
  const { mutate } = record;
  const started = useRef(false);
  const [stillProcessing, setStillProcessing] = useState(false);
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(retry.current), []);
  // Stripe's redirect_status is succeeded, processing (a bank still clearing it) or failed.
  const declined = paymentIntentId !== null && redirectStatus !== 'succeeded' && redirectStatus !== 'processing';

  useEffect(() => {
    if (!paymentIntentId || started.current) return;
    started.current = true;
    if (declined) {
      showErrorToast({ title: 'Payment Failed', description: 'Your payment was not completed. Please try again.' });
      return;
    }
    const body = { paymentIntentId, paymentType, subscriptionType };
    const deadline = Date.now() + SETTLE_LIMIT_MS;
    // While the provider says processing the server answers PAYMENT_FAILED ("not succeeded yet"):
    // ask again every second for 15 s; the webhook applies it later if it clears after that.
    const attempt = () =>
      mutate(body, {
        onError: (error) => {
          const settling = redirectStatus === 'processing' && isApiError(error, 'PAYMENT_FAILED');
          if (settling && Date.now() + SETTLE_POLL_MS < deadline) retry.current = setTimeout(attempt, SETTLE_POLL_MS);
          else if (settling) setStillProcessing(true);
          else showErrorToast(PROCESSING_FAILED);
        },
      });
    attempt();
  }, [paymentIntentId, redirectStatus, declined, paymentType, subscriptionType, mutate]);

  if (!paymentIntentId) return 'none';
  if (declined) return 'failed';
  if (record.isSuccess) return 'recorded';
  if (stillProcessing) return 'processing';
  if (record.isError && redirectStatus !== 'processing') return 'unrecorded';
  return 'recording';
}
