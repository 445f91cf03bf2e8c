import { join } from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../log';
import type { Mailer } from './mailer';
import { createOutboxMailer } from './outbox-mailer';
import { createSmtpMailer } from './smtp-mailer';

export function createMailer(config: Config, logger: Logger): Mailer {
  return config.smtpUrl
    ? createSmtpMailer(config.smtpUrl, config.mailFrom, config.mail.sendTimeoutMs)
    : createOutboxMailer(join(config.dataDir, 'outbox'), config.mailFrom, logger);
}
