import { LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { remainingShare, upgradeCredits, upgradePricePence } from '../../../core/billing';
import type { UserTokensResponse } from '../../../core/credits';
import { formatGbp } from '../../../core/money';
import { PLANS, type Plan } from '../../../core/plans';
import { useChangePlan } from '../../api/billing';
import { errorMessage } from '../../api/client';
import { Dialog } from '../dialog';
import { showErrorToast, showToast } from '../toast';
import { buttonStyles } from '../ui';
import { formatBillingDate } from './billing-date';

export const PLANS_HEADING_ID = 'plans-title';

/**
 * What a switch will do, in the words of server/payments/plan-change.ts: an upgrade is charged
 * now for the rest of the month and adds the same share of the extra credits; a downgrade keeps
 * this month's credits and takes effect at the renewal. The figures are the page's estimate
 * (the server's clock and the provider decide the exact ones), so they say "about".
 */
function SwitchTerms({ from, to, tokens }: { from: Plan; to: Plan; tokens: UserTokensResponse }) {
  const renewal = tokens.nextRefillDate ? formatBillingDate(tokens.nextRefillDate) : null;
  const fromRenewal = renewal ? `From ${renewal}` : 'From your next renewal';
  const monthly = `${formatGbp(to.pricePence)} a month for ${to.creditsPerMonth} credits`;
  if (to.creditsPerMonth < from.creditsPerMonth) {
    return (
      <p className="text-stone-800">
        Nothing is charged or refunded now, and you keep your {tokens.tokensRemaining} credits
        {renewal ? ` until ${renewal}` : ' until your next renewal'}. {fromRenewal}: {monthly}.
      </p>
    );
  }
  const share =
    tokens.lastRefillDate && tokens.nextRefillDate
      ? remainingShare(new Date(tokens.lastRefillDate), new Date(tokens.nextRefillDate), new Date())
      : 1;
  return (
    <p className="text-stone-800">
      You pay the difference for the rest of this month now, about {formatGbp(upgradePricePence(from.pricePence, to.pricePence, share))},
      and get about {upgradeCredits(from.creditsPerMonth, to.creditsPerMonth, share)} more credits straight away. {fromRenewal}: {monthly}.
    </p>
  );
}

/** "Switch to Pro" on a plan card, for an active subscriber on another plan; confirmed in a dialog first. */
export function SwitchPlanButton({ plan, tokens, describedBy }: { plan: Plan; tokens: UserTokensResponse; describedBy: string }) {
  const [open, setOpen] = useState(false);
  const change = useChangePlan();
  if (!tokens.subscriptionType) return null;
  const current = PLANS[tokens.subscriptionType];
  const label = `Switch to ${plan.name}`;

  function confirm() {
    change.mutate(plan.id, {
      onSuccess: (answer) => {
        setOpen(false);
        // This card now says "Current Plan", so the button that opened the dialog is gone: focus the plans' heading.
        document.getElementById(PLANS_HEADING_ID)?.focus();
        showToast({ title: 'Plan Changed', description: answer.message });
      },
      onError: (error) => {
        setOpen(false);
        showErrorToast({ title: 'Plan Change Failed', description: errorMessage(error, 'Your plan was not changed. Please try again.') });
      },
    });
  }

  return (
    <>
      <button type="button" className={`${buttonStyles.primary} w-full`} aria-describedby={describedBy} onClick={() => setOpen(true)}>
        {label}
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`${label}?`}
        actions={
          <>
            <button type="button" className={buttonStyles.secondary} onClick={() => setOpen(false)} disabled={change.isPending}>
              Keep {current.name}
            </button>
            <button type="button" className={buttonStyles.primary} onClick={confirm} disabled={change.isPending} aria-busy={change.isPending || undefined}>
              {change.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
              {change.isPending ? 'Switching…' : `Yes, ${label}`}
            </button>
          </>
        }
      >
        <SwitchTerms from={current} to={plan} tokens={tokens} />
      </Dialog>
    </>
  );
}
