import type { Db } from '../db/client';
import type { Logger } from './log';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Mailer } from './mail/mailer';
import type { VisionProvider } from './analysis/types';
import type { Assistants } from './assistant/create-assistant';
import type { PaymentProvider } from './payments/types';
import type { CardPaymentsProvider } from './card-payments/types';
import type { EventLoopWatch } from './ops/event-loop';
import type { PhotoStore } from './storage/photo-store';

/** Everything createApp needs from outside, injected so tests build the same app. */
export interface AppDeps {
  db: Db;
  config: Config;
  clock: Clock;
  mailer: Mailer;
  vision: VisionProvider;
  /** The help assistant: a model when one is configured, and always the local answerer. */
  assistants: Assistants;
  /** Null in production without Stripe keys: payment routes answer 503. */
  payments: PaymentProvider | null;
  /** Customers' card payments (card-payments/create-provider.ts): the demo, the install's own Stripe account, or Connect; null when off. */
  cardPayments: CardPaymentsProvider | null;
  /** Structured logs (server/log.ts): the access line, provider failures, unexpected errors. */
  logger: Logger;
  /** Analysis photos and company logos: DATA_DIR's folders, or object storage (server/storage/). */
  photos: PhotoStore;
  /** The event loop's delay, reported by /healthz; one shared by the process when not given. */
  eventLoop?: EventLoopWatch;
  /** Aborted when the server is stopping: model calls in flight end at once and are refunded. */
  stopping?: AbortSignal;
}
