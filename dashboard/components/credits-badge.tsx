import { Coins, Infinity as InfinityIcon } from 'lucide-react';
import { analysesAvailable, type UserTokensResponse } from '../../core/credits';
import { useUserTokens } from '../api/credits';
import { formatBillingDate } from './billing/billing-date';

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "40 credits · 4 analyses": the balance and how many analyses it pays for (docs/product.md, Screens). */
export function creditsLabel(credits: number): string {
  return `${plural(credits, 'credit', 'credits')} · ${plural(analysesAvailable(credits), 'analysis', 'analyses')}`;
}

/** During the Unlimited pass the badge reads "Unlimited" with the pass's end date. */
export function balanceLabel(tokens: UserTokensResponse): string {
  if (tokens.unlimited) return tokens.passEndsAt ? `Unlimited until ${formatBillingDate(tokens.passEndsAt)}` : 'Unlimited';
  return creditsLabel(tokens.tokensRemaining);
}

export function CreditsBadge() {
  const tokens = useUserTokens();
  let label: string;
  if (tokens.isPending) label = 'Loading credits…';
  else if (tokens.isError) label = 'Credits unavailable';
  else label = balanceLabel(tokens.data);
  const Icon = tokens.data?.unlimited ? InfinityIcon : Coins;

  return (
    <span
      data-testid="credits-badge"
      aria-live="polite"
      className="inline-flex items-center gap-1.5 rounded-full border border-green-200 bg-green-50 px-3 py-1 text-sm font-medium whitespace-nowrap text-green-900"
    >
      <Icon aria-hidden="true" className="size-4" />
      {label}
    </span>
  );
}
