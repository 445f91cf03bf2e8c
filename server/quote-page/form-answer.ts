import type { z } from 'zod';
import { DomainError } from '../../core/errors';
import { earlyStartRequestSchema } from '../../core/cancellation-period';
import { quoteAcceptSchema, quoteCancelSchema, quoteChangesSchema, quoteDeclineSchema } from '../../core/quote-versions';
import { validationError } from '../http/errors';
import type { CustomerAnswer } from '../jobs/quote-flow';
import type { AnswerForm, TypedAnswer } from './page';

/**
 * The quote page's forms as the browser posts them (application/x-www-form-urlencoded), read into
 * the same schemas as the JSON API's (core/quote-versions.ts): a ticked box is present, an
 * unticked one absent; each ticked optional item is one `optional` field holding its id.
 */

export type FormAnswer = Omit<CustomerAnswer, 'address' | 'userAgent'>;

export type ParsedForm = { typed: TypedAnswer } & ({ ok: true; answer: FormAnswer } | { ok: false; error: DomainError });

const STRAY_OPTION = 'Choose only from the optional items on this quote.';
const ITEM_ID = /^[1-9]\d{0,8}$/;

function checked<T>(schema: z.ZodType<T>, value: unknown): { ok: true; data: T } | { ok: false; error: DomainError } {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, error: validationError(parsed.error) };
}

export function parseAnswerForm(form: AnswerForm, fields: URLSearchParams): ParsedForm {
  if (form === 'decline') {
    const typed = { reason: fields.get('reason') ?? '' };
    const result = checked(quoteDeclineSchema, { reason: typed.reason || undefined });
    return result.ok ? { typed, ok: true, answer: { kind: 'declined', message: result.data.reason || undefined } } : { typed, ...result };
  }
  if (form === 'changes') {
    const typed = { message: fields.get('message') ?? '' };
    const result = checked(quoteChangesSchema, typed);
    return result.ok ? { typed, ok: true, answer: { kind: 'changes_requested', message: result.data.message } } : { typed, ...result };
  }
  const ids = fields.getAll('optional');
  const typed: TypedAnswer = {
    name: fields.get('name') ?? '',
    acceptTerms: fields.has('acceptTerms'),
    startEarly: fields.has('startEarly'),
    optionalItemIds: ids.filter((id) => ITEM_ID.test(id)).map(Number),
  };
  if (ids.some((id) => !ITEM_ID.test(id))) {
    return { typed, ok: false, error: new DomainError('VALIDATION_ERROR', STRAY_OPTION, { details: { optionalItemIds: [STRAY_OPTION] } }) };
  }
  const result = checked(quoteAcceptSchema, {
    name: typed.name,
    acceptTerms: typed.acceptTerms,
    optionalItemIds: typed.optionalItemIds,
    startWithinCancellationPeriod: typed.startEarly,
  });
  if (!result.ok) return { typed, ...result };
  const { name, optionalItemIds, startWithinCancellationPeriod } = result.data;
  return { typed, ok: true, answer: { kind: 'accepted', name, optionalItemIds, startEarly: startWithinCancellationPeriod } };
}

/** The cancel form: the customer's name and the tick that says they are cancelling (quoteCancelSchema). */
export function parseCancelForm(fields: URLSearchParams): { typed: TypedAnswer } & ({ ok: true; name: string } | { ok: false; error: DomainError }) {
  const typed: TypedAnswer = { name: fields.get('name') ?? '', confirm: fields.has('confirm') };
  const result = checked(quoteCancelSchema, { name: typed.name, confirm: typed.confirm });
  return result.ok ? { typed, ok: true, name: result.data.name } : { typed, ...result };
}

/** The early start form: the customer's name and the tick that says they ask (earlyStartRequestSchema). */
export function parseEarlyStartForm(fields: URLSearchParams): { typed: TypedAnswer } & ({ ok: true; name: string } | { ok: false; error: DomainError }) {
  const typed: TypedAnswer = { name: fields.get('name') ?? '', confirm: fields.has('confirm') };
  const result = checked(earlyStartRequestSchema, { name: typed.name, confirm: typed.confirm });
  return result.ok ? { typed, ok: true, name: result.data.name } : { typed, ...result };
}
