import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Inbox, ListPlus, LoaderCircle, Lock, Save, Scale } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { LOCKED_STATUSES, lockedMessage, type Job, type JobItem } from '../../core/jobs';
import type { VatMode } from '../../core/price';
import { quoteRoundingLabel } from '../../core/quote-settings';
import { errorMessage, isApiError } from '../api/client';
import { useJobMoney } from '../api/invoices';
import { jobKeys, useJob, useUpdateJob, type JobChanges } from '../api/jobs';
import { queryKeys } from '../api/query-client';
import { signedInApi } from '../api/signed-in';
import { ErrorAlert } from '../components/alert';
import { formatAnalysisDate } from '../components/analysis/analysis-date';
import { byPerson } from '../components/by-person';
import { Dialog } from '../components/dialog';
import { AddLineForm } from '../components/jobs/add-line-form';
import { BookingPanel } from '../components/jobs/booking-panel';
import { OnSitePanel } from '../components/jobs/on-site-panel';
import { SiteNotesPanel } from '../components/jobs/site-notes-panel';
import { CancellationPanel } from '../components/jobs/cancellation-panel';
import { ProtectedTreesPanel } from '../components/jobs/protected-trees-panel';
import { InvoicesPanel } from '../components/invoices/invoices-panel';
import { ChangeRequestNotice } from '../components/jobs/change-request-notice';
import { DepositOnAcceptance } from '../components/jobs/deposit-on-acceptance';
import { RefundDueNotice } from '../components/jobs/refund-due-notice';
import { ChangedSinceSentNotice, ExpiredNotice } from '../components/jobs/changed-since-sent-notice';
import { SendQuotePanel } from '../components/jobs/send-quote-panel';
import { JobCustomerFields, type CustomerErrors } from '../components/jobs/job-customer-fields';
import {
  customerChange,
  customerDraftOf,
  formatQuoteTotal,
  itemChanges,
  itemErrors,
  liveTotals,
  type CustomerDraft,
  type ItemDraft,
} from '../components/jobs/job-draft';
import { itemTitle, JobItemEditor } from '../components/jobs/job-item-editor';
import { MONEY_STATUSES } from '../components/jobs/job-money';
import { JobStatusBadge } from '../components/jobs/job-status-badge';
import { WaitingForDepositNotice } from '../components/jobs/waiting-for-deposit-notice';
import { JobTotals } from '../components/jobs/job-totals';
import { BackLink, PageTitle, SignedInLayout } from '../components/page-layout';
import { PageState } from '../components/page-state';
import { showToast } from '../components/toast';
import { buttonStyles, linkStyles } from '../components/ui';
import { useRouteId } from '../components/use-route-id';

const FORM_ID = 'job-form';
/** The statuses with a booking to make or show (BookingPanel), and the crew's notes and day beside it. */
const BOOKED_STATUSES: ReadonlySet<Job['status']> = new Set(['accepted', 'booked', 'done']);
const FIX_FIRST = 'Some fields need correcting first: they are marked in red.';

const PRICES_ARE: Record<VatMode, string> = {
  inc: 'Prices are as the customer reads them, including VAT.',
  ex: 'Prices are before VAT; VAT is added to the total.',
  none: 'No VAT is charged on this quote.',
};

/** A 400's per-field messages for the customer (`customer.email`, ...), on the fields they name. */
function customerErrorsOf(error: unknown): CustomerErrors {
  if (!isApiError(error) || !error.details) return {};
  const errors: CustomerErrors = {};
  for (const field of ['name', 'email', 'phone', 'siteAddress'] as const) {
    const message = error.details[`customer.${field}`]?.[0];
    if (message) errors[field] = message;
  }
  return errors;
}

/** The rounding rule from Pricing, when Settings has it to say: "to the nearest £5". */
function useRoundingRule(): string | null {
  const settings = useQuery({ queryKey: queryKeys.settings, queryFn: signedInApi.settings.get });
  const rounding = settings.data?.quoteRounding;
  return rounding ? `to the nearest ${quoteRoundingLabel(rounding)}` : null;
}

/**
 * One job being priced (docs/product.md, Jobs and quotes). Changes stay on the page until Save
 * (or Round prices, which saves them and rounds); the totals follow them as they are typed.
 * Adding a line and removing an item go to the server at once and leave other changes in place.
 */
function JobEditor({ job }: { job: Job }) {
  const update = useUpdateJob(job.id);
  const queryClient = useQueryClient();
  const rule = useRoundingRule();
  const [drafts, setDrafts] = useState<Record<number, ItemDraft>>({});
  const [customer, setCustomer] = useState<CustomerDraft>(() => customerDraftOf(job.customer));
  const [customerErrors, setCustomerErrors] = useState<CustomerErrors>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [removing, setRemoving] = useState<JobItem | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const itemsHeading = useRef<HTMLHeadingElement>(null);
  const locked = LOCKED_STATUSES.has(job.status);
  // Every job's money is one read (the Jobs list's, often already here); this job's is found in it.
  const money = useJobMoney(MONEY_STATUSES.has(job.status));
  const waitingForDeposit = MONEY_STATUSES.has(job.status) && (money.data?.find((m) => m.jobId === job.id)?.waitingForDeposit ?? false);

  const changes = itemChanges(job.items, drafts);
  const customerChanged = customerChange(job.customer, customer);
  const unsaved = changes.length > 0 || customerChanged !== undefined;
  const invalid = job.items.some((item) => Object.keys(itemErrors(item, drafts[item.id])).length > 0);
  const live = liveTotals(job.items, drafts, job.vatMode, job.acceptance?.optionalItemIds);

  function editItem(id: number, change: ItemDraft) {
    setDrafts((all) => ({ ...all, [id]: { ...all[id], ...change } }));
  }

  function send(extra: Pick<JobChanges, 'roundPrices'>, saved: (job: Job) => void) {
    if (update.isPending || locked) return;
    const nameMissing = customer.name.trim() === '';
    setCustomerErrors(nameMissing ? { name: 'Customer name is required' } : {});
    if (invalid || nameMissing) {
      setFailure(FIX_FIRST);
      // After the render that marks them, focus the first field in error.
      requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setFailure(undefined);
    const body: JobChanges = { ...extra };
    if (customerChanged) body.customer = customerChanged;
    if (changes.length > 0) body.items = changes;
    update.mutate(body, {
      onSuccess: (job) => {
        setDrafts({});
        setCustomer(customerDraftOf(job.customer));
        saved(job);
      },
      onError: (error) => {
        setCustomerErrors(customerErrorsOf(error));
        setFailure(errorMessage(error, 'The job could not be saved. Please try again.'));
        // Accepted meanwhile (409): read the job again, so the page shows it locked.
        if (isApiError(error, 'CONFLICT')) void queryClient.invalidateQueries({ queryKey: jobKeys.job(job.id) });
      },
    });
  }

  function save(event: FormEvent) {
    event.preventDefault();
    if (!unsaved) return showToast({ title: 'Nothing to save', description: 'Every change is saved.' });
    send({}, (saved) => showToast({ title: 'Job saved', description: `${saved.reference} for ${saved.customer.name}` }));
  }

  function roundPrices() {
    send({ roundPrices: true }, () => showToast({ title: 'Prices rounded', description: rule ? `Every price ${rule}.` : 'Every price is rounded by your rule in Pricing.' }));
  }

  function remove(item: JobItem) {
    setFailure(undefined);
    update.mutate(
      { removeItemIds: [item.id] },
      {
        onSuccess: () => {
          setDrafts(({ [item.id]: _gone, ...rest }) => rest);
          setRemoving(null);
          showToast({ title: 'Item removed', description: item.description });
        },
        onError: (error) => {
          setRemoving(null);
          setFailure(errorMessage(error, 'The item could not be removed. Please try again.'));
        },
      },
    );
  }

  const busy = update.isPending;
  return (
    <>
      <div className="mb-6 flex flex-col gap-1">
        <PageTitle title={`${job.reference} for ${job.customer.name}`} />
        <div className="-mt-5 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-stone-700">
          <JobStatusBadge status={job.status} />
          <span>
            Made <time dateTime={job.createdAt}>{formatAnalysisDate(job.createdAt)}</time>
            {byPerson(job.createdBy)}
          </span>
          {job.leadId !== null ? (
            <Link href="/admin/businesses" className={`inline-flex items-center gap-1 ${linkStyles}`}>
              <Inbox aria-hidden="true" className="size-4" />
              From a quote request
            </Link>
          ) : null}
        </div>
      </div>

      <ChangeRequestNotice job={job} />
      <ChangedSinceSentNotice job={job} />
      <ExpiredNotice job={job} />
      {waitingForDeposit ? <WaitingForDepositNotice /> : null}
      <RefundDueNotice job={job} />
      {locked ? (
        <p className="mb-4 flex items-start gap-2 rounded-lg border border-stone-200 bg-stone-50 px-3 py-2.5 text-sm text-stone-800">
          <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {lockedMessage(job.status)}
        </p>
      ) : null}

      {/*
        The form reads top to bottom, Save in reach at its foot; from lg the totals stand beside it.
        Grid placement moves them there without a second copy in the page.
      */}
      <div className="flex max-w-3xl flex-col gap-6 lg:grid lg:max-w-none lg:grid-cols-[minmax(0,1fr)_19rem] lg:gap-x-8">
        {/*
          Once accepted, booking is what the job asks for next: first in the column. The panels
          before the form are at most four (booking, cancelling, protected trees, invoices), the
          rows the totals span beside them, so the form always starts in the first column.
        */}
        {/* Booking, what happened on site and the crew's notes are one place in the grid, so the panels stay four. */}
        {BOOKED_STATUSES.has(job.status) ? (
          <div className="flex min-w-0 flex-col gap-6">
            <BookingPanel job={job} waitingForDeposit={waitingForDeposit} />
            <OnSitePanel job={job} />
            <SiteNotesPanel job={job} />
          </div>
        ) : null}
        <CancellationPanel job={job} />
        <ProtectedTreesPanel jobId={job.id} />
        <InvoicesPanel job={job} />
        <form id={FORM_ID} ref={form} onSubmit={save} noValidate>
          <fieldset disabled={locked} className="flex min-w-0 flex-col gap-6">
            <JobCustomerFields
              value={customer}
              errors={customerErrors}
              onChange={(change) => {
                setCustomer((value) => ({ ...value, ...change }));
                setCustomerErrors((errors) => ({ ...errors, ...Object.fromEntries(Object.keys(change).map((key) => [key, undefined])) }));
              }}
            />

            <section aria-labelledby="job-items-title" className="flex flex-col gap-3">
              <div className="flex flex-wrap items-end justify-between gap-2">
                <div>
                  <h2 id="job-items-title" ref={itemsHeading} tabIndex={-1} className="text-lg font-semibold text-stone-900 outline-none">
                    {`Items (${job.items.length})`}
                  </h2>
                  <p className="text-sm text-stone-700">{PRICES_ARE[job.vatMode]}</p>
                </div>
                {job.items.length > 0 ? (
                  <button type="button" className={`${buttonStyles.secondary} px-3 py-2`} onClick={roundPrices} aria-disabled={busy || undefined}>
                    <Scale aria-hidden="true" className="size-4" />
                    Round prices{rule ? <span className="font-normal">{` ${rule}`}</span> : null}
                  </button>
                ) : null}
              </div>
              {job.items.length === 0 ? (
                <p className="rounded-xl bg-stone-50 px-4 py-3 text-sm text-stone-700">
                  Nothing in this job yet. Add a line below, or add trees from History to quote them with their photos and estimates.
                </p>
              ) : (
                <ol aria-labelledby="job-items-title" className="flex flex-col gap-3">
                  {job.items.map((item, index) => (
                    <JobItemEditor
                      key={item.id}
                      item={item}
                      index={index}
                      draft={drafts[item.id]}
                      vatMode={job.vatMode}
                      onChange={(change) => editItem(item.id, change)}
                      onRemove={locked ? undefined : () => setRemoving(item)}
                    />
                  ))}
                </ol>
              )}
              {locked ? null : (
                <Link href={`/history?job=${job.id}`} className={`inline-flex min-h-11 w-fit items-center gap-1.5 ${linkStyles}`}>
                  <ListPlus aria-hidden="true" className="size-4" />
                  Add trees from History
                </Link>
              )}
            </section>
          </fieldset>
        </form>
        {/* An accepted quote is a record: nothing to add, remove or save. */}
        {locked ? null : <AddLineForm job={job} disabled={locked} />}
        {locked ? null : <DepositOnAcceptance job={job} />}
        <SendQuotePanel job={job} unsaved={unsaved} />
        <div className="lg:sticky lg:top-4 lg:col-start-2 lg:row-span-4 lg:row-start-1 lg:self-start">
          <JobTotals live={live} vatMode={job.vatMode} unsaved={unsaved} accepted={job.acceptance !== null} cancelled={job.status === 'cancelled'} />
        </div>

        {/* Kept clear of the chat button in the corner (right-4, size-14) until the column ends short of it. */}
        <aside
          aria-label="Total and save"
          className="sticky bottom-0 z-10 -mx-4 flex flex-col gap-2 border-t border-stone-200 bg-white/95 py-3 pr-20 pl-4 backdrop-blur-sm sm:mx-0 sm:rounded-t-xl sm:border sm:border-b-0 lg:pr-4"
        >
          {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
          <div className="flex items-center justify-between gap-3">
            <div className="min-w-0">
              <p className="font-bold text-green-900">{formatQuoteTotal(live.totals, job.vatMode)}</p>
              <p role="status" className="text-xs text-stone-700">
                {locked ? (job.status === 'cancelled' ? 'Cancelled: locked' : 'Accepted: locked') : unsaved ? 'Unsaved changes' : 'All changes saved'}
              </p>
            </div>
            {locked ? null : (
              <button type="submit" form={FORM_ID} className={buttonStyles.primary} aria-disabled={busy || undefined} aria-busy={busy || undefined}>
                {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Save aria-hidden="true" className="size-4" />}
                Save
              </button>
            )}
          </div>
        </aside>
      </div>

      <Dialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title="Remove this item?"
        returnFocusRef={itemsHeading}
        actions={
          <>
            <button type="button" className={buttonStyles.secondary} onClick={() => setRemoving(null)} disabled={busy}>
              Keep it
            </button>
            <button type="button" className={buttonStyles.danger} disabled={busy} aria-busy={busy || undefined} onClick={() => removing && remove(removing)}>
              Remove
            </button>
          </>
        }
      >
        {removing ? (
          <p className="text-stone-800">
            {`"${itemTitle(removing, job.items.indexOf(removing))}" and its price come off this quote. ${
              removing.kind === 'tree' ? 'The analysis stays in History.' : ''
            }`}
          </p>
        ) : null}
      </Dialog>
    </>
  );
}

/** What the page says when its address names no job, or the job could not be read. */
const NO_JOB = {
  title: 'Job Not Found',
  fallback: 'There is no job here. The link may be wrong.',
  back: { href: '/jobs', label: 'See all your jobs' },
};

function LoadedJob({ id }: { id: number }) {
  const job = useJob(id);
  if (job.isPending) return <PageState kind="loading" label="Loading the job" />;
  if (job.isError) return <PageState kind="not-found" {...NO_JOB} error={job.error} />;
  return <JobEditor job={job.data} />;
}

/** /jobs/{id}: one job's customer, items, prices and totals. */
export function JobPage() {
  const id = useRouteId();
  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink href="/jobs">Back to Jobs</BackLink>
      </div>
      {id === undefined ? <PageState kind="not-found" {...NO_JOB} /> : <LoadedJob key={id} id={id} />}
    </SignedInLayout>
  );
}
