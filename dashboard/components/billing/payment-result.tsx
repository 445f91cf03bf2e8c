import { CircleAlert, CircleCheck, SearchX, Clock, RefreshCw } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import { ErrorAlert } from '../alert';
import { buttonStyles, cardStyles } from '../ui';
import { PaymentLoading } from './card-form';
import { PROCESSING_FAILED } from './payment-flow';
import type { ProviderReturn } from './provider-return';

/** The page's h1, focused when it appears so screen readers announce the outcome. */
function ResultHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 ref={ref} tabIndex={-1} className="text-2xl font-bold tracking-tight text-green-900 outline-none sm:text-3xl">
      {children}
    </h1>
  );
}

/**
 * A payment's success view ("Payment Successful!", "Subscription Active!"), or,
 * after a provider's redirect, the recording of that payment and its outcome.
 */
export function PaymentResult({
  title,
  children,
  providerReturn,
  retryHref,
}: {
  title: string;
  children: ReactNode;
  providerReturn: ProviderReturn;
  /** The payment form, for a redirect that came back unpaid. */
  retryHref: string;
}) {
  if (providerReturn === 'recording') return <PaymentSettling />;
  if (providerReturn === 'processing') {
    return (
      <ResultCard icon="wait" title="Payment Processing">
        <p>
          Your bank is still processing this payment. It is applied to your account as soon as it clears, usually within
          a few minutes: check back on this page or the credits badge. Please do not pay again.
        </p>
      </ResultCard>
    );
  }

  if (providerReturn === 'failed' || providerReturn === 'unrecorded') {
    const paid = providerReturn === 'unrecorded';
    return (
      <section className={`${cardStyles} mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-10 text-center sm:px-8`}>
        <span className="flex size-14 items-center justify-center rounded-full bg-red-50 text-red-700">
          <CircleAlert aria-hidden="true" className="size-7" />
        </span>
        <ResultHeading>{paid ? PROCESSING_FAILED.title : 'Payment Failed'}</ResultHeading>
        <ErrorAlert>{paid ? PROCESSING_FAILED.description : 'Your payment was not completed. No money was taken.'}</ErrorAlert>
        <div className="flex flex-col gap-2 sm:flex-row">
          {paid ? null : (
            <Link href={retryHref} className={buttonStyles.primary}>
              <RefreshCw aria-hidden="true" className="size-4" />
              Try Again
            </Link>
          )}
          <Link href="/" className={buttonStyles.secondary}>
            Back to Home
          </Link>
        </div>
      </section>
    );
  }

  return (
    <section className={`${cardStyles} mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-10 text-center sm:px-8`}>
      <span className="flex size-16 items-center justify-center rounded-full bg-green-100 text-green-800">
        <CircleCheck aria-hidden="true" className="size-9" />
      </span>
      <ResultHeading>{title}</ResultHeading>
      <div className="max-w-prose text-stone-700">{children}</div>
      <Link href="/" className={`${buttonStyles.primary} px-6 py-3 text-base`}>
        Start Analyzing
      </Link>
    </section>
  );
}

/** Shown while a payment settles (the success pages poll the server for up to 15 s meanwhile). */
export function PaymentSettling() {
  return (
    <div role="status" className="flex flex-col items-center gap-2">
      <PaymentLoading label="Confirming your payment" />
      <p className="-mt-6 max-w-prose px-4 text-center text-sm text-stone-700">
        Waiting for the card provider to confirm it. This usually takes a few seconds.
      </p>
    </div>
  );
}

/** A result that is not a success: nothing found, or not confirmed yet. Always a way on. */
export function ResultCard({ icon, title, children, actions }: { icon: 'wait' | 'none'; title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className={`${cardStyles} mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-10 text-center sm:px-8`}>
      <span className="flex size-14 items-center justify-center rounded-full bg-stone-100 text-stone-700">
        {icon === 'wait' ? <Clock aria-hidden="true" className="size-7" /> : <SearchX aria-hidden="true" className="size-7" />}
      </span>
      <ResultHeading>{title}</ResultHeading>
      <div className="max-w-prose text-stone-700">{children}</div>
      <div className="flex flex-col gap-2 sm:flex-row">
        {actions}
        <Link href="/" className={buttonStyles.secondary}>
          Back to Home
        </Link>
      </div>
    </section>
  );
}

/** The account's state could not be read: say so, never guess a success. */
export function SuccessCheckFailed({ retry }: { retry: () => void }) {
  return (
    <ResultCard
      icon="wait"
      title="Could Not Check Your Payment"
      actions={
        <button type="button" className={buttonStyles.primary} onClick={retry}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Try Again
        </button>
      }
    >
      <p>Your account could not be reached just now, so this page cannot tell whether a payment went through.</p>
    </ResultCard>
  );
}
