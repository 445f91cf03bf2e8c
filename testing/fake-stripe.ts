import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  addOneMonth,
  buildInvoice,
  buildInvoicePayment,
  buildPaymentIntent,
  buildPrice,
  buildProrationInvoice,
  buildSubscription,
  fakeId,
  fakeList,
  type FakeCustomer,
  type FakeInvoice,
  type FakeInvoicePayment,
  type FakePaymentIntent,
  type FakeProduct,
  type FakeStripeObject,
  type FakeSubscription,
  type Metadata,
} from './fake-stripe-objects';

export * from './fake-stripe-objects';

/**
 * A small fake Stripe API for tests (CONVENTIONS 5: local fake HTTP servers for outside services).
 * The real `stripe` SDK talks to it through `apiBase` (host, port, protocol 'http'), form-encoded as
 * the SDK sends, and gets JSON shaped like Stripe's objects (./fake-stripe-objects.ts).
 *
 *   const stripe = await startFakeStripe();
 *   const provider = createStripeProvider({ secretKey: 'sk_test_x', publishableKey: null, webhookSecret, apiBase: stripe.apiBase });
 *   stripe.succeedPaymentIntent(created.paymentIntentId);           // the browser "paid"
 *   const { body, signature } = signedWebhook(invoicePaidEvent(stripe.advanceSubscription(subId)), webhookSecret);
 *   await stripe.close();
 *
 * Endpoints: POST/GET /v1/customers[/:id], /v1/products[/:id], /v1/payment_intents[/:id];
 * POST /v1/subscriptions (items[].price_data, payment_behavior default_incomplete: an open first
 * invoice with a PaymentIntent, status 'incomplete'), GET/POST/DELETE /v1/subscriptions/:id
 * (update: cancel_at_period_end, metadata, items[0] price_data with proration_behavior none or
 * always_invoice: see changePrice), GET /v1/invoices/:id, GET /v1/invoice_payments
 * (filters invoice, payment[payment_intent]). `expand[]` works on every answer. Unknown ids get
 * resource_missing (404 in the URL, 400 as a parameter). With `secretKey` set, another key gets 401,
 * and (unlike Stripe, which masks it) the message repeats the key in full, so a test can prove the
 * provider never passes it on. `now` sets the fake's clock (created, periods) for tests with one.
 * Nothing is sent on its own: tests build events with the builders and sign them with signedWebhook.
 */
export interface FakeStripeState {
  customers: Map<string, FakeCustomer>;
  products: Map<string, FakeProduct>;
  paymentIntents: Map<string, FakePaymentIntent>;
  subscriptions: Map<string, FakeSubscription>;
  invoices: Map<string, FakeInvoice>;
  invoicePayments: Map<string, FakeInvoicePayment>;
}

export interface FakeStripeRequest {
  method: string;
  /** e.g. /v1/payment_intents/pi_123, without the query. */
  path: string;
  /** The form body (POST) or query (GET, DELETE), decoded into nested objects and arrays. */
  params: Record<string, unknown>;
  apiKey: string | null;
  stripeVersion: string | null;
  idempotencyKey: string | null;
}

export interface FakeStripeError {
  status: number;
  type?: string;
  code?: string;
  message?: string;
}

export interface FakeStripe {
  /** http://127.0.0.1:PORT, for STRIPE_API_BASE / createStripeProvider({ apiBase }). */
  apiBase: string;
  /** Same as apiBase. */
  url: string;
  state: FakeStripeState;
  /** Every request, oldest first (`requests.length = 0` clears it). */
  requests: FakeStripeRequest[];
  /** The customer paid: the PaymentIntent succeeds, and with it its invoice and subscription. */
  succeedPaymentIntent(id: string): FakePaymentIntent;
  /** Changes a PaymentIntent as a test needs (a wrong amount, another customer, a status). */
  setPaymentIntent(id: string, patch: Partial<FakePaymentIntent>): FakePaymentIntent;
  /** The subscription's latest invoice. */
  latestInvoice(subscriptionId: string): FakeInvoice;
  /** Starts the next month: a new invoice, paid (default) or failed (subscription past_due). */
  advanceSubscription(id: string, options?: { outcome?: 'paid' | 'failed' }): FakeInvoice;
  /** The next charge of a saved card (a plan change's proration) is declined. */
  declineNextCharge(): void;
  /** The subscription ends now (status canceled), as when Stripe ends it at the period end. */
  cancelSubscription(id: string): FakeSubscription;
  /**
   * The next request is answered with this error (and Stripe-Should-Retry: false); with
   * `path`, the next request whose path matches (e.g. /^\/v1\/subscriptions\//, to fail a
   * later read while the earlier ones succeed).
   */
  failNextRequest(error: FakeStripeError, options?: { path?: RegExp }): void;
  close(): Promise<void>;
}

type Params = Record<string, unknown>;

export async function startFakeStripe(options: { secretKey?: string; now?: () => Date } = {}): Promise<FakeStripe> {
  const now = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const state: FakeStripeState = {
    customers: new Map(),
    products: new Map(),
    paymentIntents: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    invoicePayments: new Map(),
  };
  const requests: FakeStripeRequest[] = [];
  let nextError: FakeStripeError | null = null;
  let nextErrorPath: RegExp | null = null;
  let declineCharges = 0;
  const maps = Object.values(state) as Map<string, FakeStripeObject>[];
  const lookup = (id: string) => maps.find((m) => m.has(id))?.get(id);
  /** The object, else Stripe's resource_missing: 404 for the URL's id, 400 for an id given as a parameter. */
  function get<T>(map: Map<string, T>, kind: string, id: string, status = 404): T {
    const found = map.get(id);
    if (!found) throw { status, code: 'resource_missing', message: `No such ${kind}: '${id}'` } satisfies FakeStripeError;
    return found;
  }

  function newPaymentIntent(amount: number, currency: string, customer: string | null, metadata: Metadata, automatic: boolean): FakePaymentIntent {
    const intent = buildPaymentIntent({ amount, currency, customer, metadata, automatic, created: now() });
    state.paymentIntents.set(intent.id, intent);
    return intent;
  }

  /** The subscription's next invoice with its default PaymentIntent, as Stripe finalizes it. */
  function newInvoice(sub: FakeSubscription, billingReason: string): FakeInvoice {
    const invoice = buildInvoice(sub, billingReason, now());
    state.invoices.set(invoice.id, invoice);
    // Stripe does not copy subscription metadata onto the invoice's PaymentIntent.
    const intent = newPaymentIntent(invoice.amount_due, invoice.currency, sub.customer, {}, false);
    const payment = buildInvoicePayment(invoice, intent.id, now());
    state.invoicePayments.set(payment.id, payment);
    sub.latest_invoice = invoice.id;
    return invoice;
  }

  function succeedPaymentIntent(id: string): FakePaymentIntent {
    const intent = get(state.paymentIntents, 'payment_intent', id);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, payment_method: intent.payment_method ?? fakeId('pm') });
    const payment = [...state.invoicePayments.values()].find((p) => p.payment.payment_intent === id);
    const invoice = payment && state.invoices.get(payment.invoice);
    if (payment && invoice) {
      Object.assign(payment, { status: 'paid', amount_paid: intent.amount, status_transitions: { canceled_at: null, paid_at: now() } });
      Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due, amount_remaining: 0, attempted: true, attempt_count: invoice.attempt_count + 1 });
      invoice.status_transitions.paid_at = now();
      const sub = state.subscriptions.get(invoice.parent.subscription_details.subscription);
      if (sub && sub.status !== 'canceled') Object.assign(sub, { status: 'active', default_payment_method: intent.payment_method });
    }
    return intent;
  }

  const routes: Record<string, (id: string | undefined, p: Params) => unknown> = {
    'POST customers': (_id, p) => {
      const customer: FakeCustomer = { id: fakeId('cus'), object: 'customer', created: now(), livemode: false, email: str(p.email), name: str(p.name), metadata: meta(p.metadata) };
      state.customers.set(customer.id, customer);
      return customer;
    },
    'GET customers': (id) => get(state.customers, 'customer', id!),
    'POST products': (_id, p) => {
      const id = str(p.id) ?? fakeId('prod');
      if (state.products.has(id)) throw { status: 400, code: 'resource_already_exists', message: 'Product already exists.' } satisfies FakeStripeError;
      const product: FakeProduct = { id, object: 'product', created: now(), livemode: false, active: true, name: str(p.name) ?? id, metadata: meta(p.metadata) };
      state.products.set(id, product);
      return product;
    },
    'GET products': (id) => get(state.products, 'product', id!),
    'POST payment_intents': (_id, p) => {
      const amount = Number(p.amount);
      if (!Number.isInteger(amount) || amount < 1 || !str(p.currency)) throw { status: 400, code: 'parameter_missing', message: 'amount and currency are required' };
      const customer = str(p.customer);
      if (customer) get(state.customers, 'customer', customer, 400);
      return newPaymentIntent(amount, str(p.currency)!, customer, meta(p.metadata), str(rec(p.automatic_payment_methods).enabled) === 'true');
    },
    'GET payment_intents': (id) => get(state.paymentIntents, 'payment_intent', id!),
    'POST subscriptions': (id, p) => (id ? updateSubscription(id, p) : createSubscription(p)),
    'GET subscriptions': (id) => get(state.subscriptions, 'subscription', id!),
    'DELETE subscriptions': (id) => cancelSubscription(id!),
    'GET invoices': (id) => get(state.invoices, 'invoice', id!),
    'GET invoice_payments': (_id, p) => {
      const byIntent = str(rec(p.payment).payment_intent);
      const data = [...state.invoicePayments.values()]
        .filter((ip) => (!str(p.invoice) || ip.invoice === p.invoice) && (!byIntent || ip.payment.payment_intent === byIntent))
        .reverse();
      return fakeList(data.slice(0, Number(p.limit ?? 10)), '/v1/invoice_payments');
    },
  };

  function createSubscription(p: Params): FakeSubscription {
    const customer = get(state.customers, 'customer', str(p.customer) ?? '', 400);
    const priceData = rec(rec(list(p.items)[0]).price_data);
    const product = get(state.products, 'product', str(priceData.product) ?? '', 400);
    const sub = buildSubscription({
      customer: customer.id, product: product.id, currency: str(priceData.currency) ?? 'gbp', unitAmount: Number(priceData.unit_amount),
      interval: str(rec(priceData.recurring).interval) ?? 'month', metadata: meta(p.metadata),
      saveDefaultPaymentMethod: str(rec(p.payment_settings).save_default_payment_method), created: now(),
    });
    state.subscriptions.set(sub.id, sub);
    newInvoice(sub, 'subscription_create');
    return sub;
  }

  function updateSubscription(id: string, p: Params): FakeSubscription {
    const sub = get(state.subscriptions, 'subscription', id);
    const itemUpdate = rec(list(p.items)[0]);
    // A price change first: with error_if_incomplete a failed charge must leave everything else alone.
    if (str(itemUpdate.id)) changePrice(sub, itemUpdate, p);
    if (p.cancel_at_period_end !== undefined) {
      sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
      // Stripe reports the period end as cancel_at once cancel_at_period_end is set.
      sub.cancel_at = sub.cancel_at_period_end ? sub.items.data[0]!.current_period_end : null;
    }
    if (p.metadata !== undefined) sub.metadata = { ...sub.metadata, ...meta(p.metadata) };
    return sub;
  }

  /**
   * items[0][id] with a new price_data: proration_behavior 'none' swaps the price for the next
   * invoice; 'always_invoice' also invoices the proration now and charges the saved payment
   * method, and with payment_behavior error_if_incomplete a declined charge is a 402 card_error
   * that changes nothing (docs.stripe.com/billing/subscriptions/pending-updates).
   */
  function changePrice(sub: FakeSubscription, itemUpdate: Params, p: Params): void {
    const item = sub.items.data.find((i) => i.id === itemUpdate.id);
    if (!item) throw { status: 400, code: 'resource_missing', message: `No such subscription item: '${str(itemUpdate.id)}'` } satisfies FakeStripeError;
    const priceData = rec(itemUpdate.price_data);
    const product = get(state.products, 'product', str(priceData.product) ?? '', 400);
    const price = buildPrice({
      product: product.id, currency: str(priceData.currency) ?? sub.currency, unitAmount: Number(priceData.unit_amount),
      interval: str(rec(priceData.recurring).interval) ?? 'month', created: now(),
    });
    if (str(p.proration_behavior) === 'always_invoice') {
      const at = p.proration_date !== undefined ? Number(p.proration_date) : now();
      const invoice = buildProrationInvoice(sub, item, item.price, price, at);
      const declined = invoice.amount_due > 0 && (declineCharges > 0 || !sub.default_payment_method);
      if (declined && declineCharges > 0) declineCharges -= 1;
      if (declined && str(p.payment_behavior) === 'error_if_incomplete') {
        throw { status: 402, type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } satisfies FakeStripeError;
      }
      if (declined) throw { status: 400, message: 'The fake supports a declined plan change only with payment_behavior=error_if_incomplete' } satisfies FakeStripeError;
      state.invoices.set(invoice.id, invoice);
      sub.latest_invoice = invoice.id;
      item.price = price;
      if (invoice.amount_due > 0) {
        const intent = newPaymentIntent(invoice.amount_due, invoice.currency, sub.customer, {}, false);
        const payment = buildInvoicePayment(invoice, intent.id, now());
        state.invoicePayments.set(payment.id, payment);
        succeedPaymentIntent(intent.id);
      } else {
        Object.assign(invoice, { status: 'paid', status_transitions: { ...invoice.status_transitions, paid_at: now() } });
      }
      return;
    }
    item.price = price;
  }

  function cancelSubscription(id: string): FakeSubscription {
    const sub = get(state.subscriptions, 'subscription', id);
    return Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
  }

  /** Copies an answer, fills the `expand[]` paths, and adds includable invoice fields only when expanded. */
  function render(value: unknown, paths: string[][]): unknown {
    if (Array.isArray(value)) return value.map((v) => render(v, paths));
    if (!isRecord(value)) return value;
    const out: Params = { ...value };
    for (const key of new Set(paths.map((path) => path[0]!))) {
      const rest = paths.filter((path) => path[0] === key && path.length > 1).map((path) => path.slice(1));
      let child = value.object === 'invoice' ? (invoiceIncludable(value.id as string, key) ?? value[key]) : value[key];
      if (typeof child === 'string') child = lookup(child) ?? child;
      out[key] = render(child, rest);
    }
    return structuredClone(out);
  }

  function invoiceIncludable(invoiceId: string, key: string): unknown {
    const payments = [...state.invoicePayments.values()].filter((ip) => ip.invoice === invoiceId);
    if (key === 'payments') return fakeList(payments, `/v1/invoice_payments?invoice=${invoiceId}`);
    if (key !== 'confirmation_secret') return undefined;
    const intent = state.paymentIntents.get(payments.find((ip) => ip.is_default)?.payment.payment_intent ?? '');
    return intent ? { type: 'payment_intent', client_secret: intent.client_secret } : null;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readText(req);
    const params = parseForm(req.method === 'POST' ? body : url.search.slice(1));
    const apiKey = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
    requests.push({
      method: req.method ?? 'GET', path: url.pathname, params, apiKey,
      stripeVersion: header(req, 'stripe-version'), idempotencyKey: header(req, 'idempotency-key'),
    });
    try {
      if (nextError && (!nextErrorPath || nextErrorPath.test(url.pathname))) {
        const error = nextError;
        nextError = null;
        nextErrorPath = null;
        throw error;
      }
      if (options.secretKey && apiKey !== options.secretKey) throw { status: 401, message: `Invalid API Key provided: ${apiKey}` };
      const match = /^\/v1\/([a-z_]+)(?:\/([^/]+))?$/.exec(url.pathname);
      const route = match && routes[`${req.method} ${match[1]}`];
      if (!match || !route) throw { status: 404, message: `Unrecognized request URL (${req.method}: ${url.pathname}).` };
      const answer = route(match[2], params);
      send(res, 200, render(answer, list(params.expand).map((path) => String(path).split('.'))));
    } catch (thrown) {
      if (!isRecord(thrown) || typeof thrown.status !== 'number') throw thrown;
      const { status, type, code, message } = thrown as unknown as FakeStripeError;
      const errorType = type ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
      send(res, status, { error: { type: errorType, ...(code ? { code } : {}), message: message ?? 'Fake Stripe error' } });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: { type: 'api_error', message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiBase,
    url: apiBase,
    state,
    requests,
    succeedPaymentIntent,
    setPaymentIntent: (id, patch) => Object.assign(get(state.paymentIntents, 'payment_intent', id), patch),
    latestInvoice: (id) => get(state.invoices, 'invoice', get(state.subscriptions, 'subscription', id).latest_invoice ?? ''),
    advanceSubscription(id, { outcome = 'paid' } = {}) {
      const sub = get(state.subscriptions, 'subscription', id);
      const item = sub.items.data[0]!;
      Object.assign(item, { current_period_start: item.current_period_end, current_period_end: addOneMonth(item.current_period_end) });
      const invoice = newInvoice(sub, 'subscription_cycle');
      const payment = [...state.invoicePayments.values()].find((ip) => ip.invoice === invoice.id)!;
      if (outcome === 'paid') succeedPaymentIntent(payment.payment.payment_intent);
      else {
        Object.assign(invoice, { attempted: true, attempt_count: 1 });
        const lastError = { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' };
        Object.assign(get(state.paymentIntents, 'payment_intent', payment.payment.payment_intent), { last_payment_error: lastError });
        sub.status = 'past_due';
      }
      return invoice;
    },
    cancelSubscription,
    declineNextCharge() {
      declineCharges += 1;
    },
    failNextRequest(error, { path } = {}) {
      nextError = error;
      nextErrorPath = path ?? null;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Decodes the SDK's form encoding (metadata[userId]=1, items[0][price_data][currency]=gbp, expand[0]=...). */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node = root;
    path.forEach((segment, i) => {
      if (i === path.length - 1) node[segment] = value;
      else node = (isRecord(node[segment]) ? node[segment] : (node[segment] = {})) as Params;
    });
  }
  return arraysFromIndexes(root) as Params;
}

function arraysFromIndexes(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((k) => [k, arraysFromIndexes(value[k])] as const);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, v]) => v);
  return Object.fromEntries(entries);
}

const isRecord = (value: unknown): value is Params => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const rec = (value: unknown): Params => (isRecord(value) ? value : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const meta = (value: unknown): Metadata => Object.fromEntries(Object.entries(rec(value)).map(([k, v]) => [k, String(v)]));
const header = (req: IncomingMessage, name: string) => (req.headers[name] as string | undefined) ?? null;

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  const noRetry = status >= 400 ? { 'stripe-should-retry': 'false' } : {};
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': fakeId('req'), ...noRetry });
  res.end(JSON.stringify(body));
}
