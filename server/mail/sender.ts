import type { SendMailOptions } from 'nodemailer';
import { plainLine } from '../../core/plain-text';
import type { MailMessage } from './mailer';

/** The address inside MAIL_FROM: "TreeAnalyzer Pro <no-reply@x.test>" or a bare "no-reply@x.test". */
export function installAddress(mailFrom: string): string {
  const bracketed = /<([^<>]+)>\s*$/.exec(mailFrom);
  return (bracketed ? bracketed[1]! : mailFrom).trim();
}

/**
 * What nodemailer is given for one message, the same for SMTP and the outbox. The install's
 * address always sends; a message's `from` only names it ("Oak & Ash" <no-reply@...>), and its
 * `replyTo` says where an answer goes. Both come from people's own words (a business's name, a
 * profile's e-mail), so each is one plain line (core/plain-text.ts) before it is a header;
 * nodemailer then quotes or encodes the name, so a comma or a quote in it cannot add an address.
 */
export function mailOptions(message: MailMessage, mailFrom: string): SendMailOptions {
  const { from, replyTo, ...rest } = message;
  const name = from === undefined ? '' : plainLine(from);
  const reply = replyTo === undefined ? '' : plainLine(replyTo);
  return {
    ...rest,
    from: name ? { name, address: installAddress(mailFrom) } : mailFrom,
    ...(reply ? { replyTo: reply } : {}),
  };
}
