import { z } from 'zod';
import { analysisListSchema, analysisSchema, analyzeOutcomeSchema, type FeedbackInput } from '../../core/analysis';
import { settingsResponseSchema, type SettingsPatch } from '../../core/settings';
import { messageResponseSchema } from '../../core/accounts';
import {
  billingConfigSchema,
  cancelSubscriptionResponseSchema,
  clientSecretResponseSchema,
  demoConfirmResponseSchema,
  paymentSuccessResponseSchema,
  type PaymentType,
} from '../../core/billing';
import {
  businessListSchema,
  businessResponseSchema,
  funnelResponseSchema,
  leadListSchema,
  leadResponseSchema,
  type BusinessCreateInput,
  type BusinessUpdateInput,
} from '../../core/business';
import type { SubscriptionType } from '../../core/credits';
import { FUNNEL_DAYS } from '../../core/embed';
import { quoteRecipientResponseSchema, type QuoteRecipient, type ReportCopy } from '../../core/quote';
import { download, request } from './client';

const analysisResponseSchema = z.object({ analysis: analysisSchema });

/**
 * The typed calls of docs/product.md, API, that only signed-in pages make. Kept apart from client.ts
 * so their schemas (business, analysis, billing, settings) stay out of the guest pages'
 * first load, which the build holds to a budget (vite.dashboard.config.ts).
 */
export const signedInApi = {
  analysis: {
    /**
     * Multipart: `image`, and `description`, `siteDetails` and `treeDetails` only when given
     * (docs/product.md, Analysis). Answers an estimate, or `needs_details` (no credits taken).
     */
    analyze: (form: FormData) => request('POST', '/api/analyze-tree', { body: form, schema: analyzeOutcomeSchema }),
    /** One page of History, newest first; pass the page before's `nextCursor` for the next. */
    list: (cursor?: string | null) =>
      request('GET', cursor ? `/api/analyses?cursor=${encodeURIComponent(cursor)}` : '/api/analyses', { schema: analysisListSchema }),
    get: (id: number) => request('GET', `/api/analysis/${id}`, { schema: analysisResponseSchema }),
    sendFeedback: (id: number, body: FeedbackInput) =>
      request('PATCH', `/api/analysis/${id}/feedback`, { body: { ...body }, schema: analysisResponseSchema }),
    /** The customer's quote, or the contractor's internal copy with its notes page; who it is prepared for, when given. */
    report: (id: number, copy: ReportCopy = 'customer', recipient: QuoteRecipient = {}) => {
      const query = new URLSearchParams();
      if (copy === 'internal') query.set('copy', 'internal');
      if (recipient.customerName) query.set('customerName', recipient.customerName);
      if (recipient.siteAddress) query.set('siteAddress', recipient.siteAddress);
      const search = query.toString();
      return download(`/api/analysis/${id}/report.pdf${search ? `?${search}` : ''}`);
    },
    /** What the quote's "Prepared for" fields start with: a website lead's name, when there is one. */
    quoteRecipient: (id: number) => request('GET', `/api/analysis/${id}/quote-recipient`, { schema: quoteRecipientResponseSchema }),
  },
  billing: {
    config: () => request('GET', '/api/billing/config', { schema: billingConfigSchema }),
    /** The server decides the amount (docs/product.md, Credits and payments); none is sent. */
    createPaymentIntent: () => request('POST', '/api/create-payment-intent', { body: {}, schema: clientSecretResponseSchema }),
    createSubscription: (subscriptionType: SubscriptionType) =>
      request('POST', '/api/create-subscription', { body: { subscriptionType }, schema: clientSecretResponseSchema }),
    /** The demo card form's confirm step; a declined card is a 402 PAYMENT_FAILED. */
    confirmDemoPayment: (body: { clientSecret: string; cardNumber: string }) =>
      request('POST', '/api/demo/confirm-payment', { body, schema: demoConfirmResponseSchema }),
    /** Records a payment the provider confirmed; the server checks it with the provider first. */
    recordPayment: (body: { subscriptionType?: SubscriptionType; paymentType: PaymentType; paymentIntentId: string }) =>
      request('POST', '/api/payment-success', { body, schema: paymentSuccessResponseSchema }),
    cancelSubscription: () => request('POST', '/api/cancel-subscription', { schema: cancelSubscriptionResponseSchema }),
  },
  /** The signed-in user's own businesses and the quote requests their estimators collect. */
  businesses: {
    list: () => request('GET', '/api/businesses', { schema: businessListSchema }),
    create: (body: BusinessCreateInput) => request('POST', '/api/businesses', { body: { ...body }, schema: businessResponseSchema }),
    /** Name and slug are fixed after creation (embeds point at the slug), so they are not sent. */
    update: (id: number, body: BusinessUpdateInput) =>
      request('PATCH', `/api/businesses/${id}`, { body: { ...body }, schema: businessResponseSchema }),
    remove: (id: number) => request('DELETE', `/api/businesses/${id}`, { schema: messageResponseSchema }),
    leads: (id: number) => request('GET', `/api/businesses/${id}/leads`, { schema: leadListSchema }),
    /** The estimator's funnel, a row per UTC day, oldest first. */
    funnel: (id: number, days = FUNNEL_DAYS.default) => request('GET', `/api/businesses/${id}/funnel?days=${days}`, { schema: funnelResponseSchema }),
    setLeadContacted: (id: number, leadId: number, contacted: boolean) =>
      request('PATCH', `/api/businesses/${id}/leads/${leadId}`, { body: { contacted }, schema: leadResponseSchema }),
  },
  settings: {
    get: () => request('GET', '/api/system-settings', { schema: settingsResponseSchema }),
    /** aiInstructions and hourlyRate, and/or the whole companyProfile; what is left out is kept. */
    update: (body: SettingsPatch) =>
      request('PATCH', '/api/system-settings', { body: { ...body }, schema: settingsResponseSchema }),
    /** Multipart `logo`: PNG, JPEG or WebP, at most 2 MB; answers the settings with the new logoUrl. */
    uploadLogo: (file: File) => {
      const form = new FormData();
      form.append('logo', file);
      return request('POST', '/api/system-settings/logo', { body: form, schema: settingsResponseSchema });
    },
    removeLogo: () => request('DELETE', '/api/system-settings/logo', { schema: settingsResponseSchema }),
  },
  account: {
    /** Erasure, confirmed with the password; the export is a plain download link (ACCOUNT_EXPORT_PATH). */
    delete: (body: { password: string }) => request('DELETE', '/api/account', { body, schema: messageResponseSchema }),
  },
};
