import { useEffect, useRef } from 'react';
import { useSearchParams } from 'wouter';
import type { PaymentType } from '../../../core/billing';
import type { SubscriptionType } from '../../../core/credits';
import { useRecordPayment } from '../../api/billing';
import { showErrorToast } from '../toast';
import { PROCESSING_FAILED } from './payment-flow';

export type ProviderReturn = 'none' | 'recording' | 'recorded' | 'unrecorded' | 'failed';

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
  const declined = paymentIntentId !== null && redirectStatus !== 'succeeded';

  useEffect(() => {
    if (!paymentIntentId || started.current) return;
    started.current = true;
    if (redirectStatus !== 'succeeded') {
      showErrorToast({ title: 'Payment Failed', description: 'Your payment was not completed. Please try again.' });
      return;
    }
    mutate({ paymentIntentId, paymentType, subscriptionType }, { onError: () => showErrorToast(PROCESSING_FAILED) });
  }, [paymentIntentId, redirectStatus, paymentType, subscriptionType, mutate]);

  if (!paymentIntentId) return 'none';
  if (declined) return 'failed';
  if (record.isError) return 'unrecorded';
  if (record.isSuccess) return 'recorded';
  return 'recording';
}
