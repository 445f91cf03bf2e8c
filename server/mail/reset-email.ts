import type { MailMessage } from './mailer';

/** The password reset e-mail: a plain-text body with the link, and a simple HTML twin. */
export function resetEmail(to: string, name: string, link: string): MailMessage {
  const greeting = name ? `Hello ${name},` : 'Hello,';
  const text = [
    greeting,
    '',
    'We received a request to reset the password for your TreeAnalyzer Pro account.',
    'Open this link to choose a new password (it works once and expires in 1 hour):',
    '',
    link,
    '',
    "If you didn't ask for this, you can ignore this e-mail; your password stays the same.",
  ].join('\n');
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const html = `<p>${escape(greeting)}</p>
<p>We received a request to reset the password for your TreeAnalyzer Pro account.</p>
<p><a href="${escape(link)}">Choose a new password</a> (the link works once and expires in 1 hour).</p>
<p>If you didn't ask for this, you can ignore this e-mail; your password stays the same.</p>`;
  return { to, subject: 'Reset your TreeAnalyzer Pro password', text, html };
}
