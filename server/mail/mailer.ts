/** Outgoing e-mail behind one interface (CONVENTIONS 2): SMTP when configured, else the outbox folder. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent with the message (a quote's PDF, a booking's calendar file); nodemailer's shape. */
  attachments?: MailAttachment[];
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
