import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle, RefreshCw } from 'lucide-react';
import { useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link } from 'wouter';
import { hasActiveSubscription } from '../../../core/billing';
import type { UserTokensResponse } from '../../../core/credits';
import { formatGbp } from '../../../core/money';
import { PLANS } from '../../../core/plans';
import { rememberTokens } from '../../api/billing';
import { errorMessage } from '../../api/client';
import { signedInApi } from '../../api/signed-in';
import { useUserTokens } from '../../api/credits';
import { ErrorAlert } from '../alert';
import { PLANS_HREF } from '../analysis/plan-section';
import { creditsLabel } from '../credits-badge';
import { Dialog } from '../dialog';
import { PageState } from '../page-state';
import { showErrorToast, showToast } from '../toast';
import { buttonStyles, cardStyles, linkStyles } from '../ui';
import { formatBillingDate } from './billing-date';

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 border-b border-stone-100 py-3 last:border-b-0 sm:flex-row sm:gap-4">
      <dt className="text-sm font-medium text-stone-600 sm:w-44 sm:shrink-0">{term}</dt>
      <dd className="text-stone-900">{children}</dd>
    </div>
  );
}

/** The plan's state in words; a pending (unpaid) subscription is no plan yet. */
function statusText(tokens: UserTokensResponse): string | null {
  if (tokens.subscriptionStatus === 'active' || tokens.subscriptionStatus === 'past_due') {
    if (tokens.cancelAt) return `Cancels on ${formatBillingDate(tokens.cancelAt)}`;
    return tokens.subscriptionStatus === 'active' ? 'Active' : 'Payment overdue: the last renewal did not go through';
  }
  if (tokens.subscriptionStatus === 'canceled') return 'Cancelled';
  return null;
}

/**
 * Cancel, confirmed first. The dialog stays mounted after the button goes (a cancelled
 * plan offers no Cancel), so it can close properly and hand focus to the section.
 */
function CancelSubscription({
  tokens,
  canCancel,
  returnFocusRef,
}: {
  tokens: UserTokensResponse;
  canCancel: boolean;
  returnFocusRef: RefObject<HTMLElement | null>;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const cancel = useMutation({
    mutationFn: signedInApi.billing.cancelSubscription,
    onSuccess: ({ tokens: next }) => {
      setOpen(false);
      rememberTokens(queryClient, next);
      showToast({
        title: 'Subscription Cancelled',
        description: next.cancelAt
          ? `Your plan ends on ${formatBillingDate(next.cancelAt)}. Your credits stay usable until then.`
          : 'Your plan will end at the close of the current period.',
      });
    },
    onError: (error) => {
      showErrorToast({ title: 'Cancellation Failed', description: errorMessage(error, 'Please try again.') });
    },
  });
  const plan = tokens.subscriptionType ? PLANS[tokens.subscriptionType] : null;
  const until = tokens.nextRefillDate ? formatBillingDate(tokens.nextRefillDate) : null;

  return (
    <>
      {canCancel ? (
        <button type="button" className={buttonStyles.dangerOutline} onClick={() => setOpen(true)}>
          Cancel Subscription
        </button>
      ) : null}
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Cancel your subscription?"
        returnFocusRef={returnFocusRef}
        actions={
          <>
            <button type="button" className={buttonStyles.secondary} onClick={() => setOpen(false)} disabled={cancel.isPending}>
              Keep Subscription
            </button>
            <button
              type="button"
              className={buttonStyles.danger}
              onClick={() => cancel.mutate()}
              disabled={cancel.isPending}
              aria-busy={cancel.isPending || undefined}
            >
              {cancel.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
              Yes, Cancel Subscription
            </button>
          </>
        }
      >
        <p className="text-stone-800">
          Your {plan ? `${plan.name} plan` : 'plan'} will not renew.
          {until ? ` It stays active, with your credits, until ${until}.` : ' It stays active until the end of this period.'}
        </p>
      </Dialog>
    </>
  );
}

function BillingDetails({ tokens, returnFocusRef }: { tokens: UserTokensResponse; returnFocusRef: RefObject<HTMLElement | null> }) {
  const active = hasActiveSubscription(tokens.subscriptionStatus);
  const plan = active && tokens.subscriptionType ? PLANS[tokens.subscriptionType] : null;
  const status = statusText(tokens);
  return (
    <>
      <dl>
        <Row term="Plan">
          {plan ? `${plan.name} Monthly, ${formatGbp(plan.pricePence)} a month` : 'No monthly plan'}
        </Row>
        {status ? <Row term="Status">{status}</Row> : null}
        <Row term="Credits">{creditsLabel(tokens.tokensRemaining)}</Row>
        {active && !tokens.cancelAt && tokens.nextRefillDate ? (
          <Row term="Next refill">
            {formatBillingDate(tokens.nextRefillDate)}
            {plan ? `, back to ${plan.creditsPerMonth} credits` : ''}
          </Row>
        ) : null}
        {tokens.unlimited && tokens.passEndsAt ? (
          <Row term="Unlimited pass">Until {formatBillingDate(tokens.passEndsAt)}</Row>
        ) : null}
      </dl>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
        <CancelSubscription tokens={tokens} canCancel={active && !tokens.cancelAt} returnFocusRef={returnFocusRef} />
        {active && tokens.cancelAt ? (
          <p className="text-sm text-stone-700">
            Your plan will not renew. Your credits stay usable until {formatBillingDate(tokens.cancelAt)}.
          </p>
        ) : null}
        {active ? (
          tokens.cancelAt || tokens.subscriptionStatus === 'past_due' ? null : (
            <Link href={PLANS_HREF} className={buttonStyles.secondary}>
              Change Plan
            </Link>
          )
        ) : (
          <Link href={PLANS_HREF} className={buttonStyles.primary}>
            See Monthly Plans
          </Link>
        )}
        <Link href="/checkout" className={`text-sm ${linkStyles}`}>
          {tokens.unlimited ? 'Extend your Unlimited pass' : 'Or get 30 days of unlimited analyses'}
        </Link>
      </div>
    </>
  );
}

/** Billing: the plan, its status, credits, refill and pass dates, and Cancel. */
export function BillingSection() {
  const tokens = useUserTokens();
  const headingRef = useRef<HTMLHeadingElement>(null);
  return (
    <section aria-labelledby="billing-title" className={`${cardStyles} mt-8 p-4 sm:p-6`}>
      <h2 ref={headingRef} tabIndex={-1} id="billing-title" className="text-xl font-bold text-green-900 outline-none">
        Billing
      </h2>
      <p className="mt-1 text-sm text-stone-700">
        Credits reset every month and do not carry over. Cancel anytime: your plan runs to the end of the month you paid for.
      </p>
      <div className="mt-3">
        {tokens.isPending ? (
          <PageState kind="loading" label="Loading your billing details" className="py-8" />
        ) : tokens.isError ? (
          <div className="flex flex-col items-start gap-3">
            <ErrorAlert>{errorMessage(tokens.error, 'Your billing details could not be loaded.')}</ErrorAlert>
            <button type="button" className={buttonStyles.secondary} onClick={() => void tokens.refetch()}>
              <RefreshCw aria-hidden="true" className="size-4" />
              Try Again
            </button>
          </div>
        ) : (
          <BillingDetails tokens={tokens.data} returnFocusRef={headingRef} />
        )}
      </div>
    </section>
  );
}
