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

/** Schedule 3, Part B: the model cancellation form. */
export function modelCancellationForm(trader: Trader): string[] {
  return [
    'Model cancellation form',
    '(Complete and return this form only if you wish to cancel the contract.)',
    `To: ${contactOf(trader)}`,
    'I/We hereby give notice that I/We cancel my/our contract for the supply of the following service:',
    'Accepted on:',
    'Name of consumer(s):',
    'Address of consumer(s):',
    'Signature of consumer(s) (only if this form is sent on paper):',
    'Date:',
  ];
}
