import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ExportFormat } from '../../core/invoice-export';
import { invoiceSummaryResponseSchema } from '../../core/invoice-summary';
import {
  invoiceListSchema,
  invoiceResponseSchema,
  jobMoneyListSchema,
  type Invoice,
  type InvoiceKind,
  type InvoiceStatus,
  type PaymentMethod,
} from '../../core/invoices';
import { request } from './client';
import { queryKeys } from './query-client';

/**
 * The invoice calls (docs/product.md, Getting paid): a job's invoices for its Invoices panel, the
 * Invoices page's list and figures, and every change to one invoice. Each change answers the
 * invoice as it now is; the job's list shows it at once and the page's list and figures are read
 * again. In a module of their own, as the Jobs calls are, so their schemas load with these pages only.
 */

export interface OnSiteLine {
  description: string;
  price: string;
  note?: string;
}

export interface InvoiceCreate {
  kind: InvoiceKind;
  percent?: number;
  amount?: string;
  lines?: OnSiteLine[];
}

/** A draft's change: a deposit's percentage or amount, or a final invoice's on-site lines (all of them). */
export type InvoiceChange = { percent: number } | { amount: string } | { lines: OnSiteLine[] };

export interface PaymentInput {
  amount: string;
  paidOn: string;
  method: PaymentMethod;
  reference?: string;
}

export interface RefundInput {
  /** Left out: all that is left of the payment. */
  amount?: string;
  reason: string;
}

export interface CreditNoteInput {
  /** Left out: the whole of what is open. */
  amount?: string;
  reason: string;
}

export type StatusFilter = InvoiceStatus | 'all';

const one = { schema: invoiceResponseSchema };

export const invoicesApi = {
  ofJob: (jobId: number) => request('GET', `/api/jobs/${jobId}/invoices`, { schema: invoiceListSchema }),
  create: (jobId: number, body: InvoiceCreate) => request('POST', `/api/jobs/${jobId}/invoices`, { body: { ...body }, ...one }),
  /** `q`: every word in the customer's name or e-mail or the number; overdue first (the server's order). */
  search: (q: string, status: StatusFilter) => {
    const params = new URLSearchParams();
    if (q) params.set('q', q);
    if (status !== 'all') params.set('status', status);
    const query = params.toString();
    return request('GET', `/api/invoices${query ? `?${query}` : ''}`, { schema: invoiceListSchema });
  },
  summary: () => request('GET', '/api/invoices/summary', { schema: invoiceSummaryResponseSchema }),
  /** Each accepted, booked or done job's money state, what is owed on it, and whether it waits for a deposit. */
  jobMoney: () => request('GET', '/api/invoices/jobs', { schema: jobMoneyListSchema }),
  update: (id: number, body: InvoiceChange) => request('PATCH', `/api/invoices/${id}`, { body: { ...body }, ...one }),
  /** A draft only; answers 204. */
  remove: (id: number) => request('DELETE', `/api/invoices/${id}`),
  /** Takes the account's next number: from here on the invoice never changes. */
  issue: (id: number) => request('POST', `/api/invoices/${id}/issue`, { body: {}, ...one }),
  /** E-mails the PDF and a link: to the invoice's customer, or to `email`. */
  send: (id: number, email?: string) => request('POST', `/api/invoices/${id}/send`, { body: email ? { email } : {}, ...one }),
  revoke: (id: number) => request('POST', `/api/invoices/${id}/revoke`, { body: {}, ...one }),
  recordPayment: (id: number, body: PaymentInput) => request('POST', `/api/invoices/${id}/payments`, { body: { ...body }, ...one }),
  removePayment: (id: number, paymentId: number, reason: string) => request('DELETE', `/api/invoices/${id}/payments/${paymentId}`, { body: { reason }, ...one }),
  /** A card payment taken online goes back through the card payment service; any other is recorded as refunded. Either makes a credit note. */
  refund: (id: number, paymentId: number, body: RefundInput) => request('POST', `/api/invoices/${id}/payments/${paymentId}/refund`, { body: { ...body }, ...one }),
  credit: (id: number, body: CreditNoteInput) => request('POST', `/api/invoices/${id}/credit-notes`, { body: { ...body }, ...one }),
};

/** The PDF of an issued invoice: a plain link, the browser downloads it with the session cookie. */
export const invoicePdfPath = (id: number) => `/api/invoices/${id}/invoice.pdf`;

/** One of its credit notes as a PDF, the same way. */
export const creditNotePdfPath = (id: number, creditNoteId: number) => `/api/invoices/${id}/credit-notes/${creditNoteId}/credit-note.pdf`;

/** The accountant's export: a plain link as well. */
export function invoiceExportPath(format: ExportFormat, from: string, to: string): string {
  return `/api/invoices/export.csv?${new URLSearchParams({ format, from, to }).toString()}`;
}

const ROOT = '/api/invoices';

export const invoiceKeys = {
  ofJob: (jobId: number) => [ROOT, 'job', jobId] as const,
  search: (q: string, status: StatusFilter) => [ROOT, 'search', q, status] as const,
  summary: [ROOT, 'summary'] as const,
  /** The Jobs list's and the job page's money (queryKeys.jobMoney): under ROOT, so invalidateOthers reads it again after every invoice change. */
  money: queryKeys.jobMoney,
};

/** A job's invoices, oldest first; `enabled` false for a job that cannot have any yet (nothing is asked). */
export function useJobInvoices(jobId: number, enabled = true) {
  return useQuery({ queryKey: invoiceKeys.ofJob(jobId), queryFn: async () => (await invoicesApi.ofJob(jobId)).invoices, enabled });
}

/** The invoices a search and a status leave; the rows before stay shown while the next ones load. */
export function useInvoiceSearch(q: string, status: StatusFilter) {
  return useQuery({ queryKey: invoiceKeys.search(q, status), queryFn: async () => (await invoicesApi.search(q, status)).invoices, placeholderData: keepPreviousData });
}

export function useInvoiceSummary() {
  return useQuery({ queryKey: invoiceKeys.summary, queryFn: async () => (await invoicesApi.summary()).summary });
}

/** Every accepted job's money, read once for the Jobs list (and the job page, which finds its own); `enabled` false asks nothing. */
export function useJobMoney(enabled = true) {
  return useQuery({ queryKey: invoiceKeys.money, queryFn: async () => (await invoicesApi.jobMoney()).jobs, enabled });
}

/** The invoice as the server answered it, in its job's list at once; every other invoice read again when shown. */
function rememberInvoice(queryClient: QueryClient, invoice: Invoice): void {
  queryClient.setQueryData<Invoice[]>(invoiceKeys.ofJob(invoice.jobId), (list) => {
    if (!list) return [invoice];
    return list.some((i) => i.id === invoice.id) ? list.map((i) => (i.id === invoice.id ? invoice : i)) : [...list, invoice];
  });
  void invalidateOthers(queryClient, invoice.jobId);
}

/** The Invoices page's list and figures, each job's money (invoiceKeys.money) and any other job's list are read again when next shown. */
function invalidateOthers(queryClient: QueryClient, jobId: number) {
  return queryClient.invalidateQueries({ predicate: ({ queryKey }) => queryKey[0] === ROOT && !(queryKey[1] === 'job' && queryKey[2] === jobId) });
}

/**
 * One mutation per change, each answering the invoice. `takesNumber`: issuing moves the account's
 * next invoice number on, so Settings' copy is read again (saved back stale, it would be refused).
 */
function useInvoiceChange<V>(call: (variables: V) => Promise<{ invoice: Invoice }>, takesNumber = false) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: V) => (await call(variables)).invoice,
    onSuccess: (invoice) => {
      rememberInvoice(queryClient, invoice);
      if (takesNumber) void queryClient.invalidateQueries({ queryKey: queryKeys.settings });
    },
  });
}

export const useCreateInvoice = (jobId: number) => useInvoiceChange((body: InvoiceCreate) => invoicesApi.create(jobId, body));
export const useUpdateInvoice = () => useInvoiceChange(({ id, change }: { id: number; change: InvoiceChange }) => invoicesApi.update(id, change));
export const useIssueInvoice = () => useInvoiceChange((id: number) => invoicesApi.issue(id), true);
export const useSendInvoice = () => useInvoiceChange(({ id, email }: { id: number; email?: string }) => invoicesApi.send(id, email));
export const useRevokeInvoice = () => useInvoiceChange((id: number) => invoicesApi.revoke(id));
export const useRecordPayment = () => useInvoiceChange(({ id, payment }: { id: number; payment: PaymentInput }) => invoicesApi.recordPayment(id, payment));
export const useRemovePayment = () =>
  useInvoiceChange(({ id, paymentId, reason }: { id: number; paymentId: number; reason: string }) => invoicesApi.removePayment(id, paymentId, reason));
export const useRefundPayment = () =>
  useInvoiceChange(({ id, paymentId, refund }: { id: number; paymentId: number; refund: RefundInput }) => invoicesApi.refund(id, paymentId, refund));
export const useCreditInvoice = () => useInvoiceChange(({ id, credit }: { id: number; credit: CreditNoteInput }) => invoicesApi.credit(id, credit));

export function useDeleteInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (invoice: Pick<Invoice, 'id' | 'jobId'>) => {
      await invoicesApi.remove(invoice.id);
      return invoice;
    },
    onSuccess: ({ id, jobId }) => {
      queryClient.setQueryData<Invoice[]>(invoiceKeys.ofJob(jobId), (list) => list?.filter((i) => i.id !== id));
      void invalidateOthers(queryClient, jobId);
    },
  });
}
