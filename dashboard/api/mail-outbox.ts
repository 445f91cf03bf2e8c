import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { outboxListSchema, outboxMailSchema } from '../../core/mail-outbox';
import { request } from './client';

/**
 * The account's e-mails not yet delivered and those given up (docs/product.md, E-mail that cannot
 * be lost), as Settings shows them, and "Send again".
 */
export const mailOutboxApi = {
  list: () => request('GET', '/api/mail-outbox', { schema: outboxListSchema }),
  retry: (id: number) => request('POST', `/api/mail-outbox/${id}/retry`, { body: {}, schema: z.object({ mail: outboxMailSchema }) }),
};

export const mailOutboxKey = ['/api/mail-outbox'] as const;

export function useUndeliveredMail() {
  return useQuery({ queryKey: mailOutboxKey, queryFn: async () => (await mailOutboxApi.list()).mails });
}

export function useSendAgain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => (await mailOutboxApi.retry(id)).mail,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailOutboxKey }),
  });
}
