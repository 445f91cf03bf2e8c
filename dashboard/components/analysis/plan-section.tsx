import { Check } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import { hasActiveSubscription } from '../../../core/billing';
import { ANALYSIS_COST_CREDITS, type UserTokensResponse } from '../../../core/credits';
import { formatGbp } from '../../../core/money';
import { PLAN_ORDER, PLANS, type Plan } from '../../../core/plans';
import { PLANS_HEADING_ID, SwitchPlanButton } from '../billing/switch-plan';
import { buttonStyles, cardStyles } from '../ui';

/**
 * What every plan gives. Plans differ only in credits:
 * the product has no feature held back for a dearer plan, so none is claimed.
 */
export function planFeatures(plan: Plan): string[] {
  return [
    `${plan.creditsPerMonth} credits every month`,
    `${plan.creditsPerMonth / ANALYSIS_COST_CREDITS} tree analyses a month`,
    'PDF quote for every estimate',
    'Your own hourly rate and AI instructions',
    'Estimator to embed on your website',
  ];
}

/**
 * docs/product.md, Credits and payments: with an active subscription the card of the user's own plan says
 * "Current Plan" and the others offer "Switch to ...". A plan that is past due or set to end
 * cannot change (the server refuses it), so those buttons stay disabled and say why.
 */
function PlanAction({ plan, tokens }: { plan: Plan; tokens: UserTokensResponse | undefined }) {
  const nameId = `plan-${plan.id}-name`;
  if (tokens && hasActiveSubscription(tokens.subscriptionStatus)) {
    if (tokens.subscriptionType === plan.id || !tokens.subscriptionType) {
      return (
        <button type="button" disabled className={`${buttonStyles.secondary} w-full`}>
          {tokens.subscriptionType === plan.id ? 'Current Plan' : 'Subscription Active'}
        </button>
      );
    }
    if (tokens.cancelAt || tokens.subscriptionStatus === 'past_due') {
      return (
        <button type="button" disabled className={`${buttonStyles.secondary} w-full`}>
          {tokens.cancelAt ? 'Subscription Ending' : 'Payment Overdue'}
        </button>
      );
    }
    return <SwitchPlanButton plan={plan} tokens={tokens} describedBy={nameId} />;
  }
  return (
    <Link href={`/subscribe?plan=${plan.id}`} aria-describedby={nameId} className={`${buttonStyles.primary} w-full`}>
      Subscribe Now
    </Link>
  );
}

function PlanCard({ plan, tokens }: { plan: Plan; tokens: UserTokensResponse | undefined }) {
  const nameId = `plan-${plan.id}-name`;
  return (
    <li>
      <article aria-labelledby={nameId} className={`${cardStyles} flex h-full flex-col gap-4 p-5`}>
        <div className="flex items-start justify-between gap-2">
          <h3 id={nameId} className="text-lg font-bold text-stone-900">
            {plan.name}
          </h3>
          {plan.discountLabel ? (
            <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-bold text-amber-900">
              {plan.discountLabel}
            </span>
          ) : null}
        </div>
        <PlanPrice plan={plan} />
        <PlanFeatures plan={plan} className="flex-1" extra={['Cancel anytime']} />
        <PlanAction plan={plan} tokens={tokens} />
      </article>
    </li>
  );
}

/** Where other pages link to see the plans: "/#plans". */
export const PLANS_HREF = '/#plans';

/** The three monthly plans under the uploader. */
export function PlanSection({ tokens }: { tokens: UserTokensResponse | undefined }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // A client-side visit to /#plans does not scroll by itself: bring the plans into view.
  useEffect(() => {
    if (window.location.hash !== '#plans') return;
    headingRef.current?.scrollIntoView({ block: 'start' });
    headingRef.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section id="plans" aria-labelledby="plans-title" className="mt-10 scroll-mt-4">
      <h2 ref={headingRef} tabIndex={-1} id={PLANS_HEADING_ID} className="text-xl font-bold text-green-900 outline-none sm:text-2xl">
        Monthly Plans
      </h2>
      <p className="mt-1 mb-4 text-sm text-stone-700">
        Each analysis uses {ANALYSIS_COST_CREDITS} credits. Credits reset every month and do not carry over.
      </p>
      <ul className="grid gap-4 md:grid-cols-3">
        {PLAN_ORDER.map((id) => (
          <PlanCard key={id} plan={PLANS[id]} tokens={tokens} />
        ))}
      </ul>
    </section>
  );
}

/** A plan's monthly price, with the struck-through list price when discounted (docs/product.md, Credits and payments). */
export function PlanPrice({ plan, children }: { plan: Plan; children?: ReactNode }) {
  return (
    <p className="flex flex-wrap items-baseline gap-x-2">
      <span className="text-3xl font-bold text-green-900">{formatGbp(plan.pricePence)}</span>
      <span className="text-sm text-stone-600">a month</span>
      {plan.originalPricePence !== null ? (
        <span className="text-sm text-stone-600">
          <span className="sr-only">, was </span>
          <s>{formatGbp(plan.originalPricePence)}</s>
        </span>
      ) : null}
      {children}
    </p>
  );
}

/** A plan's features as a ticked list, on the plan cards and the subscribe page. */
export function PlanFeatures({ plan, className = '', extra = [] }: { plan: Plan; className?: string; extra?: string[] }) {
  return (
    <ul className={`flex flex-col gap-2 text-sm text-stone-700 ${className}`}>
      {[...planFeatures(plan), ...extra].map((feature) => (
        <li key={feature} className="flex items-start gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-700" />
          {feature}
        </li>
      ))}
    </ul>
  );
}
