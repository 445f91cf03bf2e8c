import { CircleAlert, RefreshCw } from 'lucide-react';
import { Link } from 'wouter';
import { INSUFFICIENT_TOKENS_MESSAGE } from '../../../core/analysis';
import { AREAS } from '../../../core/permissions';
import { errorMessage, isApiError } from '../../api/client';
import { useMayUse } from '../../api/session';
import { buttonStyles, cardStyles } from '../ui';
import { StageHeading } from './stage-heading';

export const ANALYSIS_FAILED_FALLBACK = 'The analysis could not be completed. Please try again.';

/** The error stage: "Analysis Failed", the reason and Try Again. */
export function ErrorStage({ error, onTryAgain }: { error: unknown; onTryAgain: () => void }) {
  const outOfCredits = isApiError(error, 'INSUFFICIENT_TOKENS');
  // Office spends the team's credits but cannot buy them: they are told who can, not shown plans.
  const mayBuy = useMayUse('billing');
  return (
    <section aria-labelledby="error-stage-title" className={`${cardStyles} flex flex-col items-center gap-4 px-4 py-10 text-center sm:px-6`}>
      <span className="flex size-14 items-center justify-center rounded-full bg-red-50 text-red-700">
        <CircleAlert aria-hidden="true" className="size-7" />
      </span>
      <StageHeading id="error-stage-title" focus>
        Analysis Failed
      </StageHeading>
      <p data-testid="analysis-error-message" className="max-w-prose text-stone-800">
        {outOfCredits ? INSUFFICIENT_TOKENS_MESSAGE : errorMessage(error, ANALYSIS_FAILED_FALLBACK)}
        {outOfCredits && !mayBuy ? ` ${AREAS.billing.refusal}` : null}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        {outOfCredits && mayBuy ? (
          <Link href="/subscribe" className={buttonStyles.primary}>
            View Plans
          </Link>
        ) : null}
        <button type="button" className={outOfCredits ? buttonStyles.secondary : buttonStyles.primary} onClick={onTryAgain}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Try Again
        </button>
      </div>
    </section>
  );
}
