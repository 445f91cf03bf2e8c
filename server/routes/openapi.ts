import { Hono } from 'hono';
import { z } from 'zod';
import { ACCEPTED_IMAGE_TYPES, MAX_DESCRIPTION_CHARS, MAX_UPLOAD_BYTES } from '../../core/analysis';
import { leadInputSchema, leadThanksSchema, publicBusinessSchema, widgetEventSchema } from '../../core/business';
import { siteNoteSchema } from '../../core/protection';
import { LEAD_MAX_TREES, SLUG_MAX, SLUG_PATTERN } from '../../core/embed';
import { embedAnalyzeResponseSchema } from '../../core/embed-api';
import { errorBodySchema } from '../../core/errors';
import { publicQuoteResponseSchema, QUOTE_TOKEN_MAX, quoteAcceptSchema,
  quoteAcceptedSchema, quoteCancelSchema, quoteChangesSchema, quoteDeclineSchema } from '../../core/quote-versions';
import { publicInvoiceResponseSchema } from '../../core/invoices';
import { siteDetailsInputSchema } from '../../core/site';
import { needsDetailsSchema, treeDetailsSchema } from '../../core/tree-details';
import { UPLOAD_TEXT_FIELDS } from '../analysis/upload';
import type { AppEnv } from '../http/context';

/**
 * GET /api/openapi.json: the public API as an OpenAPI 3.1 document: the embed API (what a
 * business's web developer may call from their own site) and the customer's quote link (what the
 * quote page calls, the token its only credential). The signed-in dashboard's API is not in it: it
 * needs this site's session and is described in docs/. Every body schema is generated from the
 * zod schema the server validates or answers with (z.toJSONSchema, JSON Schema 2020-12, which is
 * OpenAPI 3.1's own dialect), so the document cannot drift from the code; openapi.test.ts checks
 * the document's shape and real answers against it.
 */
export const openApiRoutes = new Hono<AppEnv>();

type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema: `input` for what a client sends (before the server's trimming
 * and defaults), `output` for what the server answers. The `$schema` line is left out: OpenAPI
 * 3.1 documents already name the dialect.
 */
function fromZod(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

const ref = (name: keyof typeof componentSchemas) => ({ $ref: `#/components/schemas/${name}` });

const componentSchemas = {
  PublicBusiness: fromZod(publicBusinessSchema, 'output'),
  EmbedEstimate: fromZod(embedAnalyzeResponseSchema, 'output'),
  NeedsDetails: fromZod(needsDetailsSchema, 'output'),
  LeadInput: fromZod(leadInputSchema, 'input'),
  LeadThanks: fromZod(leadThanksSchema, 'output'),
  WidgetEvent: fromZod(widgetEventSchema, 'input'),
  SiteNote: fromZod(siteNoteSchema, 'output'),
  TreeDetails: fromZod(treeDetailsSchema, 'input'),
  SiteDetails: fromZod(siteDetailsInputSchema, 'input'),
  PublicQuote: fromZod(publicQuoteResponseSchema, 'output'),
  QuoteAccept: fromZod(quoteAcceptSchema, 'input'),
  QuoteAccepted: fromZod(quoteAcceptedSchema, 'output'),
  QuoteDecline: fromZod(quoteDeclineSchema, 'input'),
  QuoteChanges: fromZod(quoteChangesSchema, 'input'),
  QuoteCancel: fromZod(quoteCancelSchema, 'input'),
  PublicInvoice: fromZod(publicInvoiceResponseSchema, 'output'),
  Error: fromZod(errorBodySchema, 'output'),
};

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** The refusals every public call shares, and those only some make. */
const retryAfter = {
  'Retry-After': { description: 'Seconds until a request may be sent again.', schema: { type: 'integer', minimum: 0 } },
};
function errorResponse(description: string, headers?: JsonSchema) {
  return { description, content: json(ref('Error')), ...(headers && { headers }) };
}
const notFound = errorResponse('No business has this slug.');
const siteNotListed = errorResponse('The business lists the sites its estimator may run on, and the Origin is not one of them.');
const tooMany = errorResponse('Too many requests from this address (or, for an analysis, for this business). `code` says which.', retryAfter);
const invalid = errorResponse('The body is not valid; `details` names each field and what is wrong with it.');

const slugParameter = {
  name: 'slug',
  in: 'path',
  required: true,
  description: "The business's estimator slug, as in the embed snippet.",
  schema: { type: 'string', pattern: SLUG_PATTERN.source, maxLength: SLUG_MAX },
};

/**
 * The analysis form's text parts, one for each field the server reads (UPLOAD_TEXT_FIELDS, so a
 * field added there cannot go undocumented). The tree and site answers are JSON text in plain
 * text parts: `contentMediaType` and `contentSchema` are JSON Schema's words for "a string
 * holding JSON of this shape", and the server checks the parsed text against the same schemas.
 */
const analysisTextFields: Record<keyof typeof UPLOAD_TEXT_FIELDS, JsonSchema> = {
  description: {
    type: 'string',
    maxLength: MAX_DESCRIPTION_CHARS,
    description: 'What the visitor says about the tree and the job, in their own words.',
  },
  treeDetails: {
    type: 'string',
    contentMediaType: 'application/json',
    contentSchema: ref('TreeDetails'),
    description: 'JSON text: species, height and trunk size as typed or chosen, and taps measured on the photo.',
  },
  siteDetails: {
    type: 'string',
    contentMediaType: 'application/json',
    contentSchema: ref('SiteDetails'),
    description: 'JSON text: the site questions the visitor answered; {} or absent when none.',
  },
  businessSlug: {
    type: 'string',
    description: 'The same slug as the query parameter, if sent (a call that names its business only here is accepted too).',
  },
};

/** The analysis form, as the server reads it (server/analysis/upload.ts): the photo a file part, the rest text. */
const analysisForm = {
  type: 'object',
  required: ['image'],
  properties: {
    image: {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: `One photo of the tree, at most ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB: ${ACCEPTED_IMAGE_TYPES.join(', ')}, told apart by its bytes, not its name or part type.`,
    },
    ...analysisTextFields,
  },
};

const paths = {
  '/api/businesses/{slug}': {
    get: {
      operationId: 'getPublicBusiness',
      summary: "A business's estimator: its name, rate, accent colour and whether it can take an analysis now",
      parameters: [slugParameter],
      responses: {
        '200': { description: 'The business as anyone may see it.', content: json(ref('PublicBusiness')) },
        '403': siteNotListed,
        '404': notFound,
        '429': tooMany,
      },
    },
  },
  '/api/analyze-tree': {
    post: {
      operationId: 'analyzeTreeForVisitor',
      summary: "A visitor's estimate from a photo, at the business's rate, paid by the business",
      description:
        'Send no cookie. Everything that can refuse the call (an unknown business, a site it does not list, rate limits, a full day) does so before the photo is read.',
      parameters: [
        {
          name: 'businessSlug',
          in: 'query',
          required: false,
          description: "Whose estimator this is. Send it here (or, failing that, as the form's businessSlug): everything that can refuse the call then does so before the photo is sent.",
          schema: slugParameter.schema,
        },
      ],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: analysisForm,
            encoding: { image: { contentType: ACCEPTED_IMAGE_TYPES.join(', ') } },
          },
        },
      },
      responses: {
        '201': { description: 'An estimate.', content: json(ref('EmbedEstimate')) },
        '200': {
          description: 'No estimate yet: the size is missing or the photo does not look like a tree. Nothing was charged.',
          content: json(ref('NeedsDetails')),
        },
        '400': invalid,
        '402': errorResponse('The estimator is temporarily unavailable (the business cannot pay for analyses).'),
        '403': siteNotListed,
        '404': notFound,
        '408': errorResponse('The upload stopped sending for too long.'),
        '413': errorResponse(`The photo is over ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB.`),
        '415': errorResponse('The body is not a multipart form, or the photo is not a JPEG, PNG or WebP.'),
        '429': tooMany,
        '502': errorResponse('No estimate could be worked out just now; try again in a minute.'),
        '503': errorResponse('Every analysis slot is taken.', retryAfter),
      },
    },
  },
  '/api/businesses/{slug}/leads': {
    post: {
      operationId: 'requestQuote',
      summary: '"Request a quote" under one or more estimates: the visitor\'s contact details and trees, sent to the business',
      description:
        'Besides the fields below: an e-mail address or a phone number is required, and a chosen contactMethod needs its detail. Each tree is an `analysisId` and `leadToken`, the `analysis.id` and `leadToken` of an estimate answer: the token proves the visitor saw that estimate and is good for 24 hours. `trees` carries every estimate of the visit in order (1 to ' + LEAD_MAX_TREES + ', each once), the first being the request\'s primary; the one-tree form, a top-level `analysisId` and `leadToken`, still works, and when sent beside `trees` it is put first unless that estimate is already among them (with the same token). Every token must prove its estimate: a wrong or expired token, another business\'s estimate and an unknown id all answer the same 404, and then nothing is stored. A request naming an estimate already sent updates that request (200): its details and trees become these, and a tree of another request moves to this one. `postcode` is a UK postcode in any case and spacing, stored as e.g. "LS6 2AB"; `address` is optional. A postcode outside the postcode districts the business lists is still sent, marked for the business, and the answer says `outsideArea: true`. The `website` field must stay empty (people never see it).',
      parameters: [slugParameter],
      requestBody: { required: true, content: json(ref('LeadInput')) },
      responses: {
        '201': { description: 'Sent to the business.', content: json(ref('LeadThanks')) },
        '200': { description: 'A request for one of these estimates was sent before; its details and trees are updated and the business told again (at most one e-mail about one request in 10 minutes; later updates are folded into the next).', content: json(ref('LeadThanks')) },
        '400': invalid,
        '403': siteNotListed,
        '404': errorResponse('No such business, or no estimate of this business that the token proves (one answer for a wrong token, another business and an unknown id).'),
        '429': tooMany,
      },
    },
  },
  '/api/businesses/{slug}/events': {
    post: {
      operationId: 'recordWidgetEvent',
      summary: "A step of the business's estimator funnel only the page sees (a photo chosen)",
      parameters: [slugParameter],
      requestBody: { required: true, content: json(ref('WidgetEvent')) },
      responses: {
        '204': { description: 'Counted (at most as often per address as a person could by hand).' },
        '400': invalid,
        '403': siteNotListed,
        '404': notFound,
        '429': tooMany,
      },
    },
  },
  '/api/businesses/{slug}/site-note': {
    get: {
      operationId: 'getSiteNote',
      summary: "The request screen's note under the postcode: a conservation area or Tree Preservation Order found there by the public planning data, else null",
      parameters: [slugParameter, { name: 'postcode', in: 'query', required: true, description: 'A UK postcode in any case and spacing.', schema: { type: 'string', maxLength: 20 } }],
      responses: {
        '200': { description: 'The note, or null when nothing was found, the lookup failed or lookups are off (the screen then says nothing).', content: json(ref('SiteNote')) },
        '400': invalid,
        '404': notFound,
        '429': tooMany,
      },
    },
  },
};

const tokenParameter = {
  name: 'token',
  in: 'path',
  required: true,
  description: "The token of the quote link e-mailed to the customer (`/quote/{token}`): 256 random bits, the only credential. Only its hash is stored.",
  schema: { type: 'string', maxLength: QUOTE_TOKEN_MAX },
};

/** What every quote link can answer besides its own 200. */
const quoteLinkRefusals = {
  '404': errorResponse('No quote has this link (one answer for every token nobody has).'),
  '410': errorResponse('The link was real but is no longer: withdrawn by the business, replaced by a newer version, or expired before an answer. `code` is QUOTE_GONE; the message says which.'),
  '429': errorResponse('Too many requests from this network.', retryAfter),
};
const quoteAnswered = { description: "The customer's copy, with their answer once it is an acceptance or a refusal.", content: json(ref('PublicQuote')) };
const quoteAnswerRefusals = {
  '400': invalid,
  '403': errorResponse('The request did not come from this site (an Origin or Sec-Fetch-Site of another site).'),
  ...quoteLinkRefusals,
  '409': errorResponse('The quote was already accepted or declined.'),
};

/** The customer's quote link (server/routes/quotes.ts): same-site calls, no CORS; the page /quote/{token} calls them. */
const quotePaths = {
  '/api/quotes/{token}': {
    get: {
      operationId: 'getQuote',
      summary: "The customer's copy of their quote, as it was sent, and their answer once given",
      description: 'The first read of a version tells the business its quote was viewed. Answered `private, no-store` and `noindex`.',
      parameters: [tokenParameter],
      responses: { '200': quoteAnswered, ...quoteLinkRefusals },
    },
  },
  '/api/quotes/{token}/quote.pdf': {
    get: {
      operationId: 'getQuotePdf',
      summary: "The customer's copy as a PDF: the version the link opens, with their acceptance once given",
      parameters: [tokenParameter],
      responses: {
        '200': {
          description: 'The PDF, as a download (`Content-Disposition: attachment; filename="quote-Q-000012.pdf"`).',
          content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
        },
        ...quoteLinkRefusals,
      },
    },
  },
  '/api/quotes/{token}/accept': {
    post: {
      operationId: 'acceptQuote',
      summary: 'The customer accepts: their full name, the terms ticked, the optional items they choose',
      description:
        "`optionalItemIds` are ids of the quote's optional items (any other id is a 400). `startWithinCancellationPeriod` is a consumer's request that the work start within the 14 days they may cancel in. The version's content hash, the client's address and browser are kept as evidence, the job is locked, and both sides are e-mailed.",
      parameters: [tokenParameter],
      requestBody: { required: true, content: json(ref('QuoteAccept')) },
      responses: {
        '200': {
          description:
            "The customer's copy, with their acceptance. Where the quote asks a deposit (its `deposit`) for the accepted total, also `deposit`: the deposit invoice made from the acceptance and `payUrl`, where to pay it by card (null with `payDeposit: \"bank\"` or when the business takes no card payments). The acceptance stands whatever happens to the payment.",
          content: json(ref('QuoteAccepted')),
        },
        ...quoteAnswerRefusals,
      },
    },
  },
  '/api/quotes/{token}/decline': {
    post: {
      operationId: 'declineQuote',
      summary: 'The customer declines, with a reason if they give one; the business is told',
      parameters: [tokenParameter],
      requestBody: { required: true, content: json(ref('QuoteDecline')) },
      responses: { '200': quoteAnswered, ...quoteAnswerRefusals },
    },
  },
  '/api/quotes/{token}/changes': {
    post: {
      operationId: 'askForQuoteChanges',
      summary: 'The customer asks for a change; the business is told and the quote stays open to accept',
      parameters: [tokenParameter],
      requestBody: { required: true, content: json(ref('QuoteChanges')) },
      responses: { '200': { ...quoteAnswered, description: "The customer's copy; `answer` stays null, as the quote is still open." }, ...quoteAnswerRefusals },
    },
  },
  '/api/quotes/{token}/cancel': {
    post: {
      operationId: 'cancelQuote',
      summary: 'A consumer cancels the accepted agreement within their 14 days (Consumer Contracts Regulations 2013), with their full name',
      description:
        "`confirm` must be true. The cancellation is kept with the same evidence as an acceptance (the name, the client's address and browser, the accepted copy's fingerprint), the job reads cancelled, and both sides are e-mailed. `answer.canCancel` and `answer.cancellableUntil` in the copy say whether and until when this is open.",
      parameters: [tokenParameter],
      requestBody: { required: true, content: json(ref('QuoteCancel')) },
      responses: {
        '200': { ...quoteAnswered, description: "The customer's copy, its `answer.cancellation` filled in." },
        '400': invalid,
        '403': quoteAnswerRefusals['403'],
        ...quoteLinkRefusals,
        '409': errorResponse('Not an accepted agreement, a trade quote, already cancelled, or the work is complete: the message says which.'),
        '410': errorResponse('The link no longer opens the quote, or the 14-day cancellation period is over (the message gives its last day).'),
      },
    },
  },
};

/** The customer's invoice link (server/routes/invoice-links.ts): same-site reads, no CORS; the page /invoice/{token} calls them. */
const invoiceLinkRefusals = {
  '404': errorResponse('No invoice has this link (a guessed, mistyped or overlong token).'),
  '410': errorResponse('The link was real but the business has withdrawn it. `code` is QUOTE_GONE.'),
  '429': errorResponse('Too many requests from this network.', retryAfter),
};
const invoicePaths = {
  '/api/invoice-links/{token}': {
    get: {
      operationId: 'getInvoice',
      summary: "The customer's copy of their invoice: the lines, what was paid, what is owed and how to pay",
      description: 'The first read marks the invoice viewed for the business. Answered `private, no-store`, `noindex` and `no-referrer`.',
      parameters: [tokenParameter],
      responses: { '200': { description: "The customer's copy.", content: json(ref('PublicInvoice')) }, ...invoiceLinkRefusals },
    },
  },
  '/api/invoice-links/{token}/invoice.pdf': {
    get: {
      operationId: 'getInvoicePdf',
      summary: 'The invoice as a PDF, as it stands (payments and credits included)',
      parameters: [tokenParameter],
      responses: {
        '200': {
          description: 'The PDF, as a download (`Content-Disposition: attachment; filename="invoice-INV-0001.pdf"`).',
          content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
        },
        ...invoiceLinkRefusals,
      },
    },
  },
  '/api/invoice-links/{token}/credit-notes/{creditNoteId}/credit-note.pdf': {
    get: {
      operationId: 'getCreditNotePdf',
      summary: "One of the invoice's credit notes as a PDF: its number and date, the invoice it credits, the reason, and the net, VAT and total credited",
      parameters: [tokenParameter, { name: 'creditNoteId', in: 'path', required: true, description: "The credit note's id, as the customer's copy lists it.", schema: { type: 'integer', minimum: 1 } }],
      responses: {
        '200': {
          description: 'The PDF, as a download (`Content-Disposition: attachment; filename="credit-note-CN-0001.pdf"`).',
          content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
        },
        ...invoiceLinkRefusals,
      },
    },
  },
  '/api/invoice-links/{token}/checkout': {
    post: {
      operationId: 'payInvoiceByCard',
      summary: 'Starts paying what is owed on the invoice by card: the page to pay on',
      description:
        "A card payment for exactly what is owed now, on the business's own account (Stripe Checkout: cards, wallets, Pay by Bank where Stripe offers it; the demo's page on an install without Stripe), coming back to /invoice/{token}. Coming back records nothing: the payment is recorded when Stripe's signed event arrives. No surcharge is added.",
      parameters: [tokenParameter],
      responses: {
        '200': { description: 'Where to pay.', content: json({ type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } }) },
        '403': errorResponse('The request did not come from this site.'),
        ...invoiceLinkRefusals,
        '409': errorResponse('Nothing is owed on the invoice, or the business does not take card payments yet.'),
        '502': errorResponse('The card payment service refused or did not answer; try again.'),
        '503': errorResponse('Card payments are not set up on this install.'),
      },
    },
  },
};

/** The document; `serverUrl` is this install's public address. */
export function publicApiDocument(serverUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'TreeAnalyzer Pro public API',
      version: '1',
      description:
        "The calls that need no account. The embed API, what a business's own website may call: the estimator's business lookup, a visitor's analysis, quote requests and funnel events; any site may call them with CORS and no credentials, and a business that lists its site origins gets every other origin refused. The customer's quote link (/api/quotes/{token}): read, download, accept, decline, ask for a change or (a consumer, within 14 days of accepting) cancel, the link's token the only credential; called from this site's quote page, so no CORS, and an answer from another site is refused. The customer's invoice link (/api/invoice-links/{token}): read and download, the same way.",
    },
    servers: [{ url: serverUrl }],
    paths: { ...paths, ...quotePaths, ...invoicePaths },
    components: { schemas: componentSchemas },
  };
}

// Readable from any site, so a developer's own tools (an API explorer, a client generator) can load it.
openApiRoutes.get('/', (c) =>
  c.json(publicApiDocument(c.var.deps.config.publicUrl.replace(/\/$/, '')), 200, { 'Access-Control-Allow-Origin': '*' }),
);
