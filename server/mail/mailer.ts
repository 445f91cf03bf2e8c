/** Outgoing e-mail behind one interface (CONVENTIONS 2): SMTP when configured, else the outbox folder. */
export interface MailMessage {
  to: string;
  /**
   * The name the message shows in From, e.g. the business's when it goes to their customer. The
   * install's MAIL_FROM address stays the sender (its SPF and DKIM are the install's); only
   * the display name changes (server/mail/sender.ts).
   */
  from?: string;
  /** The address a reply goes to (Reply-To), e.g. the business's when the message is from it. */
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent with the message (a quote's PDF, a booking's calendar file); nodemailer's shape. */
  attachments?: MailAttachment[];
  /** The Message-ID header, "<...@...>": the outbox fixes it when the message is written, so every try is the same message. */
  messageId?: string;
  /** The Date header: when the outbox row was written, the same on every try. */
  date?: Date;
}

export interface MailAttachment {
  filename: string;
  content: Buffer | string;
  contentType: string;
}

export interface Mailer {
  /** 'smtp' sends; 'outbox' writes .eml files for the operator to read. */
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  close?(): void;
}
