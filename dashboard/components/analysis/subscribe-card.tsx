import { Lock } from 'lucide-react';
import { Link } from 'wouter';
import { ANALYSIS_COST_CREDITS } from '../../../core/credits';
import { AREAS } from '../../../core/permissions';
import { useBillingConfig } from '../../api/billing';
import { useMayUse } from '../../api/session';
import { GrantCreditsHint } from '../billing/grant-credits-hint';
import { buttonStyles, cardStyles } from '../ui';

/**
 * In place of the uploader when the balance cannot pay for an analysis: a plan to choose, or, where
 * this install sells no credits (no Stripe keys in production), the operator's command to run.
 */
export function SubscribeCard({ credits }: { credits: number }) {
  // The office spends the team's credits but cannot buy them (core/permissions.ts, billing).
  return useMayUse('billing') ? <PlanCard credits={credits} /> : <AskTheOwnerCard credits={credits} />;
}

function AskTheOwnerCard({ credits }: { credits: number }) {
  return (
    <section aria-labelledby="subscribe-card-title" className={`${cardStyles} flex flex-col items-center gap-3 px-4 py-10 text-center sm:px-6`}>
      <span className="flex size-14 items-center justify-center rounded-full bg-green-100 text-green-800">
        <Lock aria-hidden="true" className="size-7" />
      </span>
      <h2 id="subscribe-card-title" className="text-xl font-bold text-green-900 sm:text-2xl">
        Credits Are Needed to Start Analyzing
      </h2>
      <p className="max-w-prose text-stone-700">
        {`Each analysis uses ${ANALYSIS_COST_CREDITS} credits and the team has ${credits}. ${AREAS.billing.refusal}`}
      </p>
    </section>
  );
}

function PlanCard({ credits }: { credits: number }) {
  const config = useBillingConfig();
  const noSales = config.isSuccess && config.data.provider === null;
  return (
    <section
      aria-labelledby="subscribe-card-title"
      className={`${cardStyles} flex flex-col items-center gap-3 px-4 py-10 text-center sm:px-6`}
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-green-100 text-green-800">
        <Lock aria-hidden="true" className="size-7" />
      </span>
      <h2 id="subscribe-card-title" className="text-xl font-bold text-green-900 sm:text-2xl">
        {noSales ? 'Credits Are Needed to Start Analyzing' : 'Subscribe to Start Analyzing'}
      </h2>
      {noSales ? (
        <>
          <p className="max-w-prose text-stone-700">
            Each analysis uses {ANALYSIS_COST_CREDITS} credits and you have {credits}. This install does not sell credits by card: it has no Stripe keys set up.
          </p>
          <GrantCreditsHint />
        </>
      ) : (
        <>
          <p className="max-w-prose text-stone-700">
            Each analysis uses {ANALYSIS_COST_CREDITS} credits and you have {credits}. A monthly plan gives you credits
            every month.
          </p>
          <Link href="/subscribe" className={buttonStyles.primary}>
            Choose a Plan
          </Link>
        </>
      )}
    </section>
  );
}
