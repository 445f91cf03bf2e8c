import { CalendarDays, ChevronRight, ClipboardList, History, Plus } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { JobMoney } from '../../core/invoices';
import type { JobSummary } from '../../core/job-summary';
import { JOB_STATUSES, type Job } from '../../core/jobs';
import { formatGbp } from '../../core/money';
import { useJobMoney, useInvoiceSummary } from '../api/invoices';
import { useJobSearch, useJobSummary } from '../api/job-list';
import { useDebouncedValue } from '../components/admin/use-debounced-value';
import { formatAnalysisDate } from '../components/analysis/analysis-date';
import { counted, formatPounds, JOB_STATUS_LABELS, listedValue, monthName, type StatusFilter } from '../components/jobs/job-list-summary';
import { MONEY_STATUSES, moneyByJob } from '../components/jobs/job-money';
import { JobMoneyBadge } from '../components/jobs/job-money-badge';
import { JobStatusBadge } from '../components/jobs/job-status-badge';
import { MakeJobDialog } from '../components/jobs/make-job-dialog';
import { BackLink, PageTitle, SignedInLayout } from '../components/page-layout';
import { PageState } from '../components/page-state';
import { buttonStyles, cardStyles, linkStyles } from '../components/ui';

/** Long enough to finish a word, short enough to feel immediate: the server is asked once a pause. */
const SEARCH_PAUSE_MS = 300;

const itemCount = (n: number) => `${n} ${n === 1 ? 'item' : 'items'}`;

/** The columns of a row from the sm breakpoint: reference, customer, status, items, total, date. */
const ROW_GRID = 'sm:grid sm:grid-cols-[6.5rem_minmax(0,1fr)_9.5rem_4.5rem_7.5rem_10rem] sm:items-center sm:gap-x-4';

function JobRow({ job, money }: { job: Job; money: JobMoney | undefined }) {
  return (
    <li className={`${cardStyles} relative flex flex-col gap-1 p-3 focus-within:ring-2 focus-within:ring-green-700 hover:border-green-700 sm:rounded-xl sm:px-4 ${ROW_GRID}`}>
      <div className="flex items-center justify-between gap-3 sm:contents">
        {/* The link covers the whole row, so any part of it opens the job. */}
        <Link href={`/jobs/${job.id}`} className="font-mono text-sm font-semibold text-green-900 outline-none after:absolute after:inset-0 after:rounded-2xl after:content-[''] sm:after:rounded-xl">
          {job.reference}
          <span className="sr-only">{` for ${job.customer.name}`}</span>
        </Link>
        <p className="font-semibold text-stone-900 sm:order-5 sm:text-right">{formatPounds(job.totals.gross)}</p>
      </div>
      <p className="font-medium break-words text-stone-900 sm:order-2">{job.customer.name}</p>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-stone-600 sm:contents">
        {/* The money (from GET /api/invoices/jobs) beside the status once accepted; under it from sm. */}
        <span className="flex flex-wrap items-center gap-x-2 gap-y-1 sm:order-3 sm:flex-col sm:items-start">
          <JobStatusBadge status={job.status} />
          {money && MONEY_STATUSES.has(job.status) ? <JobMoneyBadge money={money} /> : null}
        </span>
        <span className="sm:order-4">{itemCount(job.items.length)}</span>
        <time dateTime={job.createdAt} className="sm:order-6 sm:text-right">
          {formatAnalysisDate(job.createdAt)}
        </time>
      </div>
    </li>
  );
}

function NoJobs({ onNew }: { onNew: () => void }) {
  return (
    <section className={`${cardStyles} flex flex-col items-center gap-3 px-6 py-12 text-center`}>
      <span className="flex size-12 items-center justify-center rounded-full bg-green-100 text-green-800">
        <ClipboardList aria-hidden="true" className="size-6" />
      </span>
      <h2 className="text-lg font-semibold text-stone-900">No jobs yet</h2>
      <p className="max-w-prose text-sm text-stone-700">
        A job is one quote to a customer: their trees and any other work, each with the price you set. Tick analyses in
        History and choose Make a job, use Make a job on a quote request in Business Admin, or start an empty one here.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Link href="/history" className={buttonStyles.secondary}>
          <History aria-hidden="true" className="size-4" />
          Go to History
        </Link>
        <button type="button" className={buttonStyles.primary} onClick={onNew}>
          <Plus aria-hidden="true" className="size-4" />
          New job
        </button>
      </div>
    </section>
  );
}

const TILE = `${cardStyles} flex min-w-0 flex-col px-3 py-2 sm:px-4 sm:py-3`;
const AMOUNT = 'text-lg font-semibold text-stone-900 tabular-nums sm:text-xl';

/** One of the invoice figures: the whole tile opens the Invoices page. */
function InvoiceFigure({ label, amount, what }: { label: string; amount: string; what: string }) {
  return (
    <div className={`${TILE} relative focus-within:ring-2 focus-within:ring-green-700 hover:border-green-700`}>
      <dt className="text-sm text-stone-700">
        <Link href="/invoices" className="inline-flex items-center gap-0.5 outline-none after:absolute after:inset-0 after:rounded-2xl after:content-['']">
          {label}
          <span className="sr-only">: see Invoices</span>
          <ChevronRight aria-hidden="true" className="size-4 text-stone-500" />
        </Link>
      </dt>
      <dd className={AMOUNT}>{amount}</dd>
      <dd className="text-xs text-stone-600">{what}</dd>
    </div>
  );
}

/**
 * This UK month's quoted, accepted and done values, each with how many it counts, then what was
 * invoiced and paid this month and what is owed now (GET /api/invoices/summary), each opening
 * Invoices. Two tiles a row on a phone (as the Invoices page's), three from sm.
 */
function MonthFigures({ month }: { month: JobSummary['month'] }) {
  const headingId = useId();
  const invoices = useInvoiceSummary();
  const figures = [
    { label: 'Quoted', figure: month.quoted, what: counted(month.quoted.count, 'quote') + ' sent' },
    { label: 'Accepted', figure: month.accepted, what: counted(month.accepted.count, 'acceptance') },
    { label: 'Done', figure: month.done, what: counted(month.done.count, 'job') + ' done' },
  ];
  // Until the invoice figures come (or if they cannot), their tiles hold their place.
  const invoiced = invoices.data ? formatPounds(invoices.data.thisMonth.invoiced) : '…';
  const paid = invoices.data ? formatPounds(invoices.data.thisMonth.paid) : '…';
  const owed = invoices.data ? formatPounds(invoices.data.owed) : '…';
  return (
    <section aria-labelledby={headingId} className="mb-6">
      <h2 id={headingId} className="mb-2 text-sm font-semibold text-stone-700">
        <span className="sr-only">This month: </span>
        {monthName(month.start)}
      </h2>
      <dl aria-busy={invoices.isPending || undefined} className="grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-3">
        {figures.map(({ label, figure, what }) => (
          <div key={label} className={TILE}>
            <dt className="text-sm text-stone-700">{label}</dt>
            <dd className={AMOUNT}>{formatPounds(figure.gross)}</dd>
            <dd className="text-xs text-stone-600">{what}</dd>
          </div>
        ))}
        <InvoiceFigure label="Invoiced" amount={invoiced} what={invoices.isError ? 'Could not be read' : 'issued this month'} />
        <InvoiceFigure label="Paid" amount={paid} what={invoices.isError ? 'Could not be read' : 'received this month'} />
        <InvoiceFigure label="Owed" amount={owed} what={invoices.isError ? 'Could not be read' : 'owed now, any month'} />
      </dl>
    </section>
  );
}

/** All, then each status some job is in (and the one chosen), each with its count (the server's). */
function StatusFilters({ summary, value, onChange }: { summary: JobSummary; value: StatusFilter; onChange: (status: StatusFilter) => void }) {
  const { counts } = summary;
  const shown = JOB_STATUSES.filter((status) => counts[status] > 0 || status === value);
  const option = (status: StatusFilter, label: string, count?: number) => (
    <button
      key={status}
      type="button"
      aria-pressed={value === status}
      onClick={() => onChange(status)}
      className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1.5 text-sm font-medium ${
        value === status ? 'border-green-800 bg-green-800 text-white' : 'border-stone-300 bg-white text-stone-800 hover:border-green-800'
      }`}
    >
      {label}
      {count === undefined ? null : (
        <>
          {' '}
          <span className={`rounded-full px-1.5 text-xs ${value === status ? 'bg-white/20' : 'bg-stone-100'}`}>{count}</span>
        </>
      )}
    </button>
  );
  return (
    <div role="group" aria-label="Show jobs by status" className="flex flex-wrap gap-2">
      {option('all', 'All', summary.total)}
      {shown.map((status) => option(status, JOB_STATUS_LABELS[status], counts[status]))}
      {option('council', 'Waiting on the council')}
    </div>
  );
}

function JobList({ summary }: { summary: JobSummary }) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), SEARCH_PAUSE_MS);
  const jobs = useJobSearch(q, status);
  const listed = jobs.data ?? [];
  // Read once for the whole list; a row shows nothing of its money until it comes.
  const money = useJobMoney();
  const moneyOf = moneyByJob(money.data ?? []);
  // While the next search or status loads, the rows before stay shown and the list says it is busy.
  const waiting = jobs.isPlaceholderData || q !== search.trim();

  let rows;
  if (jobs.isPending) {
    rows = <PageState kind="loading" label="Loading your jobs" className="py-10" />;
  } else if (jobs.isError) {
    rows = <PageState kind="failed" error={jobs.error} fallback="Your jobs could not be loaded." onRetry={jobs.refetch} />;
  } else if (listed.length === 0) {
    rows = (
      <p className="rounded-xl bg-stone-50 px-4 py-3 text-sm text-stone-700">
        No jobs match.{' '}
        <button
          type="button"
          className={linkStyles}
          onClick={() => {
            setStatus('all');
            setSearch('');
          }}
        >
          Show every job
        </button>
      </p>
    );
  } else {
    rows = (
      <>
        <div aria-hidden="true" className={`hidden px-4 text-xs font-semibold tracking-wide text-stone-600 uppercase ${ROW_GRID}`}>
          <span>Quote</span>
          <span>Customer</span>
          <span>Status</span>
          <span>Items</span>
          <span className="text-right">Total</span>
          <span className="text-right">Made</span>
        </div>
        <ul aria-label="Jobs" aria-busy={waiting || undefined} className={`flex flex-col gap-2 transition-opacity ${waiting ? 'opacity-60' : ''}`}>
          {listed.map((job) => (
            <JobRow key={job.id} job={job} money={moneyOf.get(job.id)} />
          ))}
        </ul>
      </>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <StatusFilters summary={summary} value={status} onChange={setStatus} />
        <div className="flex flex-col gap-1.5 sm:w-72">
          <label htmlFor="job-search" className="text-sm font-medium text-stone-800">
            Search by customer
          </label>
          <input
            id="job-search"
            type="search"
            value={search}
            maxLength={100}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Name, e-mail or quote number"
            autoComplete="off"
            className="w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base text-stone-900 shadow-xs placeholder:text-stone-500 hover:border-stone-400 focus-visible:outline-2 sm:text-sm"
          />
        </div>
      </div>

      <p role="status" className="text-sm text-stone-700">
        {jobs.isSuccess ? <ListedValueLine jobs={listed} /> : null}
      </p>

      {rows}
    </div>
  );
}

/** "5 jobs listed: £1,200.00 still open, £900.00 won. Not counted: 1 draft, 1 declined." */
function ListedValueLine({ jobs }: { jobs: readonly Job[] }) {
  const value = listedValue(jobs);
  return (
    <>
      {`${counted(jobs.length, 'job')} listed: `}
      <span className="font-semibold text-stone-900">{formatGbp(value.openPence)}</span>
      {' still open, '}
      <span className="font-semibold text-stone-900">{formatGbp(value.wonPence)}</span>
      {' won.'}
      {value.notCounted ? ` Not counted: ${value.notCounted}.` : null}
    </>
  );
}

/**
 * Jobs (docs/product.md, The Jobs pages): the account's quotes, newest first, by status with
 * counts and searchable by customer (both the server's), each accepted one with its money, with this
 * month's quoted, accepted, done, invoiced and paid values, what is owed, and what the listed ones
 * are worth; each opens at /jobs/{id}.
 */
export function JobsPage() {
  const summary = useJobSummary();
  const [making, setMaking] = useState(false);
  const newButton = useRef<HTMLButtonElement>(null);

  let content;
  if (summary.isPending) {
    content = <PageState kind="loading" label="Loading your jobs" />;
  } else if (summary.isError) {
    content = <PageState kind="failed" error={summary.error} fallback="Your jobs could not be loaded." onRetry={summary.refetch} />;
  } else if (summary.data.total === 0) {
    content = <NoJobs onNew={() => setMaking(true)} />;
  } else {
    content = (
      <>
        <MonthFigures month={summary.data.month} />
        <JobList summary={summary.data} />
      </>
    );
  }

  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink />
      </div>
      <div className="flex flex-col gap-x-4 sm:flex-row sm:items-start sm:justify-between">
        <PageTitle title="Jobs" subtitle="Your quotes to customers, from draft to done." />
        <div className="mb-6 flex shrink-0 flex-wrap gap-2">
          <Link href="/schedule" className={buttonStyles.secondary}>
            <CalendarDays aria-hidden="true" className="size-4" />
            Schedule
          </Link>
          <button ref={newButton} type="button" className={buttonStyles.primary} onClick={() => setMaking(true)}>
            <Plus aria-hidden="true" className="size-4" />
            New job
          </button>
        </div>
      </div>
      {content}
      <MakeJobDialog open={making} onClose={() => setMaking(false)} returnFocusRef={newButton} />
    </SignedInLayout>
  );
}
