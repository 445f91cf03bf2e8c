import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { cardProblemListSchema, cardProblemSchema, paymentsSetupSchema, refundsDueListSchema } from '../../core/card-payments';
import { request } from './client';

/**
 * Customers' card payments as the dashboard reads them (docs/product.md, Card payments): how this
 * business takes them (Settings → Getting paid), the Connect onboarding link, the card payments
 * that arrived but could not be taken and need refunding, and the refunds due after a
 * cancellation. Refunding one payment is an invoice change (api/invoices.ts useRefundPayment).
 */

export type { RefundDue } from '../../core/card-payments';

export const cardPaymentsApi = {
  /** 503 PAYMENTS_NOT_CONFIGURED when card payments are off on the install. */
  setup: () => request('GET', '/api/payments-setup', { schema: paymentsSetupSchema }),
  /** Connect only: a fresh, single-use link to Stripe's onboarding. */
  onboarding: () => request('POST', '/api/payments-setup/onboarding', { body: {}, schema: z.object({ url: z.string() }) }),
  problems: () => request('GET', '/api/card-payment-problems', { schema: cardProblemListSchema }),
  resolve: (id: number, note: string) => request('POST', `/api/card-payment-problems/${id}/resolve`, { body: { note }, schema: z.object({ problem: cardProblemSchema }) }),
  refundsDue: (jobId?: number) => request('GET', `/api/refunds-due${jobId === undefined ? '' : `?jobId=${jobId}`}`, { schema: refundsDueListSchema }),
};

/**
 * The lists live under the invoices' root key, so every invoice change (a payment, a refund)
 * marks them stale as it does the Invoices page (api/invoices.ts invalidateOthers).
 */
export const cardPaymentKeys = {
  setup: ['/api/payments-setup'] as const,
  problems: ['/api/invoices', 'card-payment-problems'] as const,
  refundsDue: (jobId?: number) => ['/api/invoices', 'refunds-due', jobId ?? 'all'] as const,
};

export function usePaymentsSetup(enabled = true) {
  return useQuery({ queryKey: cardPaymentKeys.setup, queryFn: cardPaymentsApi.setup, enabled });
}

/** Starts (or continues) Stripe's onboarding: the answer is the address to send the browser to. */
export function useStartOnboarding() {
  return useMutation({ mutationFn: async () => (await cardPaymentsApi.onboarding()).url });
}

/** The card payments still needing a refund, oldest first as the server lists them; resolved ones left out. */
export function useCardProblems() {
  return useQuery({ queryKey: cardPaymentKeys.problems, queryFn: async () => (await cardPaymentsApi.problems()).problems.filter((p) => p.resolvedAt === null) });
}

export function useResolveProblem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, note }: { id: number; note: string }) => (await cardPaymentsApi.resolve(id, note)).problem,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cardPaymentKeys.problems }),
  });
}

/** Cancelled jobs with money still kept: every one (Invoices page), or one job's (its page; `enabled` false asks nothing). */
export function useRefundsDue(jobId?: number, enabled = true) {
  return useQuery({ queryKey: cardPaymentKeys.refundsDue(jobId), queryFn: async () => (await cardPaymentsApi.refundsDue(jobId)).refunds, enabled });
}
