import { CircleCheck, ExternalLink, Info, LoaderCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'wouter';
import { CARD_MESSAGES, CARD_PROVIDER_WORDS, type PaymentsSetup } from '../../../core/card-payments';
import { errorMessage, isApiError } from '../../api/client';
import { usePaymentsSetup, useStartOnboarding } from '../../api/card-payments';
import { ErrorAlert } from '../alert';
import { PageState } from '../page-state';
import { tallButtonStyles } from '../ui';
import { requirementsWords } from './stripe-requirements';

/**
 * Settings → Getting paid, Card payments (docs/product.md, Card payments; docs/payments.md): how
 * this business's customers pay by card. The demo says plainly that no money moves; the install's
 * own Stripe account needs nothing; under Stripe Connect the business connects its own account,
 * continues Stripe's set-up while Stripe needs more, and then takes payments. Stripe sends the
 * business back here with ?payments=returned (read the set-up again) or, through the refresh URL,
 * ?payments=expired (the single-use link expired: the button asks for a new one by a POST).
 */

function OnboardingButton({ label }: { label: string }) {
  const start = useStartOnboarding();
  return (
    <div className="flex flex-col items-start gap-2">
      <button
        type="button"
        className={tallButtonStyles.primary}
        aria-disabled={start.isPending || start.isSuccess || undefined}
        aria-busy={start.isPending || start.isSuccess || undefined}
        onClick={() => {
          if (start.isPending || start.isSuccess) return;
          // Stays busy while the browser leaves for Stripe.
          start.mutate(undefined, { onSuccess: (url) => window.location.assign(url) });
        }}
      >
        {start.isPending || start.isSuccess ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <ExternalLink aria-hidden="true" className="size-4" />}
        {label}
      </button>
      <p role="status" className="text-xs text-stone-600">
        {start.isPending || start.isSuccess ? 'Opening Stripe…' : 'Opens Stripe, which brings you back here when you are done.'}
      </p>
      {start.isError ? <ErrorAlert>{errorMessage(start.error, 'Stripe could not be opened. Please try again.')}</ErrorAlert> : null}
    </div>
  );
}

/** Where the business stands under Stripe Connect: not connected, set-up unfinished, or taking payments. */
function ConnectState({ setup }: { setup: PaymentsSetup }) {
  if (!setup.connected) {
    return (
      <>
        <p className="text-sm text-stone-800">Connect your own Stripe account to let customers pay your invoices and deposits by card. The money goes straight to your account; Stripe&apos;s fees are yours.</p>
        <OnboardingButton label="Connect with Stripe" />
      </>
    );
  }
  if (!setup.chargesEnabled) {
    const needs = requirementsWords(setup.requirements);
    return (
      <>
        <p className="text-sm text-stone-800">Your Stripe account is connected, but it cannot take card payments until its set-up is finished.</p>
        {needs.length > 0 ? (
          <div className="text-sm text-stone-800">
            <p className="font-medium">Stripe still needs:</p>
            <ul className="mt-1 list-disc pl-5 [overflow-wrap:anywhere]">
              {needs.map((need) => (
                <li key={need}>{need}</li>
              ))}
            </ul>
          </div>
        ) : (
          <p className="text-sm text-stone-700">Stripe is checking what you sent; this can take a few minutes.</p>
        )}
        <OnboardingButton label="Continue set-up with Stripe" />
      </>
    );
  }
  return (
    <p className="flex items-start gap-2 text-sm text-stone-800">
      <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-800" />
      <span>
        <strong className="font-semibold">Taking card payments</strong>
        {setup.accountId ? (
          <>
            {' through your Stripe account '}
            <span className="font-mono [overflow-wrap:anywhere]">{setup.accountId}</span>.
          </>
        ) : (
          '.'
        )}
      </span>
    </p>
  );
}

function SetupDetails({ setup }: { setup: PaymentsSetup }) {
  return (
    <>
      <p className="text-sm text-stone-700">
        <span className="font-medium text-stone-900">How customers pay by card: </span>
        {CARD_PROVIDER_WORDS[setup.provider]}
      </p>
      {setup.provider === 'demo' ? (
        <p className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-950">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            Card payments on this install are a demo: your customers can try paying an invoice or a deposit by card, but no card is charged and no money moves. To take real card payments, ask whoever
            runs this install to connect it to Stripe.
          </span>
        </p>
      ) : null}
      {setup.provider === 'own' ? <p className="text-sm text-stone-800">Your customers&apos; card payments are taken through this install&apos;s Stripe account. There is nothing for you to set up.</p> : null}
      {setup.provider === 'connect' ? <ConnectState setup={setup} /> : null}
      {setup.applicationFeePercent !== '0' ? (
        <p className="text-sm text-stone-700">{`This install keeps ${setup.applicationFeePercent}% of each card payment (your customers never see it).`}</p>
      ) : null}
    </>
  );
}

export function CardPaymentsSection() {
  const setup = usePaymentsSetup();
  const [params] = useSearchParams();
  const back = params.get('payments');
  const heading = useRef<HTMLHeadingElement>(null);
  const { refetch } = setup;

  // Back from Stripe: where the account now stands is read again, and the section is brought into view.
  useEffect(() => {
    if (back !== 'returned' && back !== 'failed' && back !== 'expired') return;
    if (back === 'returned') void refetch();
    heading.current?.scrollIntoView({ block: 'start' });
  }, [back, refetch]);

  let content;
  if (setup.isPending) content = <PageState kind="loading" label="Loading your card payments" className="py-4" />;
  else if (setup.isError && isApiError(setup.error, 'PAYMENTS_NOT_CONFIGURED'))
    content = (
      <p className="text-sm text-stone-700">
        {setup.error.message === CARD_MESSAGES.ownAccountOnly ? CARD_MESSAGES.ownAccountOnly : 'Card payments are off on this install. Customers pay by bank transfer, using the details above.'}
      </p>
    );
  else if (setup.isError) content = <PageState kind="failed" error={setup.error} fallback="Your card payments could not be loaded." onRetry={setup.refetch} />;
  else content = <SetupDetails setup={setup.data} />;

  return (
    <div className="flex flex-col gap-3 border-t border-stone-200 pt-5">
      <h3 ref={heading} tabIndex={-1} className="scroll-mt-4 font-semibold text-stone-900 outline-none">
        Card payments
      </h3>
      {back === 'failed' || back === 'expired' ? <ErrorAlert>The link to Stripe expired before the set-up was finished. Please try again: it opens a new one.</ErrorAlert> : null}
      {back === 'returned' && setup.isFetching ? <p className="text-sm text-stone-700">Back from Stripe: reading where your account stands…</p> : null}
      {content}
    </div>
  );
}
