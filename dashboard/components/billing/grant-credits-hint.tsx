import { Copy, Terminal } from 'lucide-react';
import { useState } from 'react';
import { analysesAvailable, grantCreditsCommand, SUGGESTED_GRANT_CREDITS } from '../../../core/credits';
import { useCurrentUser } from '../../api/session';
import { tallButtonStyles } from '../ui';

/**
 * Where this install sells no credits (in production without Stripe keys: GET /api/billing/config
 * answers no provider), what to do instead: the operator's command with this account's own
 * username filled in (docs/operations.md, Operator commands), so nothing is left to guess.
 */
export function GrantCreditsHint() {
  const { data: user } = useCurrentUser();
  const command = grantCreditsCommand(user?.username ?? '<your username>');
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(command);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <div className="flex w-full max-w-prose flex-col gap-2 text-left">
      <p className="text-sm text-stone-700">
        Whoever runs this install can add credits to your account. On the server, in the app&apos;s folder, they run:
      </p>
      <div className="flex flex-wrap items-center gap-2 rounded-lg bg-stone-900 px-3 py-2">
        <Terminal aria-hidden="true" className="size-4 shrink-0 text-stone-300" />
        <code className="min-w-0 flex-1 font-mono text-sm [overflow-wrap:anywhere] text-white">{command}</code>
        <button type="button" className={tallButtonStyles.secondary} onClick={() => void copy()}>
          <Copy aria-hidden="true" className="size-4" />
          {copied === 'yes' ? 'Copied' : 'Copy'}
          <span className="sr-only"> the command</span>
        </button>
      </div>
      <p role="status" className="text-sm text-stone-700">
        {copied === 'failed' ? 'The command could not be copied: select it and copy it by hand. ' : ''}
        {`That adds ${SUGGESTED_GRANT_CREDITS} credits, enough for ${analysesAvailable(SUGGESTED_GRANT_CREDITS)} analyses. To sell credits by card instead, they set the Stripe keys (STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY).`}
      </p>
    </div>
  );
}
