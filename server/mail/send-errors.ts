import { plainLine } from '../../core/plain-text';

/**
 * Why a try failed, in words for the account owner who reads them in Settings, and whether to try
 * again. The mail server's own reply is quoted (it says what it wants: "mailbox full", "try again
 * later"); how the install reaches it (host, port, sign-in) is not: that is the operator's, and
 * goes to the log with the full error.
 */
export interface SendFailure {
  words: string;
  /** The mail server refused the recipient for good (a 5xx reply to RCPT TO): no later try would do better. */
  permanent: boolean;
}

interface NodemailerError {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
}

const reply = (response: string | undefined) => plainLine(response ?? '').slice(0, 200);

export function describeSendFailure(err: unknown): SendFailure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as NodemailerError;
  const code = e.responseCode;
  if (e.code === 'EENVELOPE' && code !== undefined && code >= 500) {
    return { words: `The mail server refused the address: ${reply(e.response)}`, permanent: true };
  }
  if (code !== undefined && code >= 400 && code < 500) {
    return { words: `The mail server asked to try later: ${reply(e.response)}`, permanent: false };
  }
  if (e.code === 'EAUTH') return { words: "The mail server did not accept the install's sign-in (the operator's SMTP_URL).", permanent: false };
  if (code !== undefined && code >= 500) return { words: `The mail server refused the message: ${reply(e.response)}`, permanent: false };
  if (e.code === 'ETIMEDOUT') return { words: 'The mail server did not answer in time.', permanent: false };
  if (e.code === 'ECONNECTION' || e.code === 'ESOCKET' || e.code === 'EDNS') return { words: 'The mail server could not be reached.', permanent: false };
  return { words: 'The e-mail could not be handed to the mail server.', permanent: false };
}
