import { useMutation, useQuery, useQueryClient, type QueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { planChangeResponseSchema } from '../../core/billing';
import type { SubscriptionType, UserTokensResponse } from '../../core/credits';
import { request } from './client';
import { signedInApi } from './signed-in';
import { queryKeys } from './query-client';

/** Which card form this server takes: Stripe, the demo form, or none (payments off). */
export function useBillingConfig() {
  return useQuery({ queryKey: queryKeys.billingConfig, queryFn: signedInApi.billing.config });
}

/** A new balance from the server (after a payment or a cancellation) replaces the cached one. */
export function rememberTokens(queryClient: QueryClient, tokens: UserTokensResponse): void {
  queryClient.setQueryData(queryKeys.userTokens, tokens);
  void queryClient.invalidateQueries({ queryKey: queryKeys.userTokens });
}

/**
 * Starts a payment (a PaymentIntent or a subscription) once, when `enabled` first holds.
 * Creating one has a side effect on the server, so the ref keeps React StrictMode's
 * second mount, and any re-render, from creating another; `restart` is the user's own
 * Try Again.
 */
export function useStartPaymentOnce(
  enabled: boolean,
  options: UseMutationOptions<{ clientSecret: string }, Error, void>,
) {
  const mutation = useMutation(options);
  const { mutate } = mutation;
  const started = useRef(false);
  useEffect(() => {
    if (!enabled || started.current) return;
    started.current = true;
    mutate();
  }, [enabled, mutate]);
  return { ...mutation, restart: () => mutate() };
}

/** POST /api/payment-success, called the same way for Stripe and the demo; the new balance is cached. */
export function useRecordPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signedInApi.billing.recordPayment,
    onSuccess: ({ tokens }) => rememberTokens(queryClient, tokens),
  });
}

/** POST /api/subscription/change: an active subscriber moves to another plan; the new balance is cached. */
export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: SubscriptionType) => request('POST', '/api/subscription/change', { body: { plan }, schema: planChangeResponseSchema }),
    onSuccess: ({ tokens }) => rememberTokens(queryClient, tokens),
  });
}
