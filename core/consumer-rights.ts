/**
 * What a consumer who accepts a quote online must be told (docs/product.md, Jobs and quotes):
 * the Consumer Contracts (Information, Cancellation and Additional Charges) Regulations 2013
 * give 14 days to cancel a service contract made at a distance (regulation 30), work may start
 * inside them only at the consumer's express request (regulation 36), after which a consumer
 * who cancels pays for what was done (regulation 36(4)), and the information and the model
 * cancellation form (Schedule 3, Parts A and B) must reach them on a durable medium: the
 * confirmation e-mail. The wording follows Schedule 3's model instructions, in plain English.
 */

export interface Trader {
  name: string;
  address: string;
  phone: string;
  email: string;
}

function contactOf(trader: Trader): string {
  return [trader.name, trader.address.replace(/\n/g, ', '), trader.phone, trader.email].filter(Boolean).join(', ');
}

/** Schedule 3, Part A: the right to cancel, for this trader. */
export function cancellationNotice(trader: Trader): string[] {
  return [
    'Your right to cancel',
    'You have the right to cancel this contract within 14 days without giving any reason. The cancellation period ends 14 days after the day you accepted this quote.',
    `To cancel, tell us (${contactOf(trader)}) of your decision by a clear statement, for example a letter sent by post or an e-mail. You may use the model cancellation form below, but you do not have to. It is enough to send your message before the 14 days are over.`,
    'If you cancel, we will repay everything you have paid us, without undue delay and no later than 14 days after the day we are told you have cancelled, by the same means you paid.',
    'If you asked us to start the work within the 14 days, and then cancel, you pay for the work done up to when you told us you were cancelling, in proportion to the whole job. Once the work is complete, you can no longer cancel.',
  ];
}

/** What asking for an early start means, said where the customer ticks it. */
export const EARLY_START_EXPLAINED =
  'Tick this if you want the work to start within the 14 days you have to cancel. You can still cancel, but you would pay for any work done by then, and once the work is complete you can no longer cancel.';

/**
 * Schedule 3, Part B: the model cancellation form; once the customer has accepted, filled in with
 * the service, the day they accepted, their name and address, so all they add is the date.
 */
export function modelCancellationForm(trader: Trader, facts?: ModelFormFacts): string[] {
  const filled = (label: string, value: string | null | undefined) => (value ? `${label} ${value.replace(/\n/g, ', ')}` : label);
  return [
    'Model cancellation form',
    '(Complete and return this form only if you wish to cancel the contract.)',
    `To: ${contactOf(trader)}`,
    filled('I/We hereby give notice that I/We cancel my/our contract for the supply of the following service:', facts?.service),
    filled('Accepted on:', facts?.acceptedOn),
    filled('Name of consumer(s):', facts?.name),
    filled('Address of consumer(s):', facts?.address),
    'Signature of consumer(s) (only if this form is sent on paper):',
    'Date:',
  ];
}

/** How many days a consumer has to cancel a service contract made at a distance (regulation 30). */
export const CANCELLATION_DAYS = 14;

/**
 * The last UK day ("YYYY-MM-DD") a consumer who accepted on `acceptedOn` (a UK day) may cancel:
 * the period "ends 14 days after the day on which the contract is entered into" (regulation 30(3)).
 */
export function cancellationLastDay(acceptedOn: string): string {
  const [year, month, day] = acceptedOn.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + CANCELLATION_DAYS)).toISOString().slice(0, 10);
}

/** What the trader owes once told of a cancellation (regulation 34), said to the surgeon. */
export const REFUND_DUTY =
  'Under the Consumer Contracts Regulations 2013 you must refund any payment you have received for this job within 14 days of being told of the cancellation, by the same means the customer paid. If they asked for the work to start within the 14 days, you may keep a proportionate amount for work already done.';

/** What the model form is filled in with, once the customer has accepted. */
export interface ModelFormFacts {
  service: string;
  acceptedOn: string;
  name: string;
  address: string | null;
}

/** The model form's facts for an accepted quote: the work agreed, the day, the name typed, the site. */
export function modelFormFactsOf(
  quote: { reference: string; customer: { siteAddress: string | null }; items: readonly { id: number; description: string; optional: boolean }[] },
  accepted: { chosen: readonly number[]; on: string; name: string },
): ModelFormFacts {
  const chosen = new Set(accepted.chosen);
  const work = quote.items
    .filter((item) => !item.optional || chosen.has(item.id))
    .map((item) => item.description.replace(/\s+/g, ' ').trim())
    .map((text) => (text.length > 80 ? `${text.slice(0, 77)}...` : text));
  return { service: `tree work, quote ${quote.reference}${work.length ? ` (${work.join('; ')})` : ''}`, acceptedOn: accepted.on, name: accepted.name, address: quote.customer.siteAddress };
}
