import { Coins } from 'lucide-react';
import { analysesAvailable } from '../../core/credits';
import { useUserTokens } from '../api/session';

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "40 credits · 4 analyses": the balance and how many analyses it pays for (SPEC section 9). */
export function creditsLabel(credits: number): string {
  return `${plural(credits, 'credit', 'credits')} · ${plural(analysesAvailable(credits), 'analysis', 'analyses')}`;
}

export function CreditsBadge() {
  const tokens = useUserTokens();
  let label: string;
  if (tokens.isPending) label = 'Loading credits…';
  else if (tokens.isError) label = 'Credits unavailable';
  else label = creditsLabel(tokens.data.tokensRemaining);

  return (
    <span
      data-testid="credits-badge"
      aria-live="polite"
      className="inline-flex items-center gap-1.5 rounded-full border border-green-200 bg-green-50 px-3 py-1 text-sm font-medium whitespace-nowrap text-green-900"
    >
      <Coins aria-hidden="true" className="size-4" />
      {label}
    </span>
  );
}
