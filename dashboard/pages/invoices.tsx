import { ClipboardList, ReceiptPoundSterling } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { documentNumber, INVOICE_STATUS_WORDS, INVOICE_STATUSES, type Invoice } from '../../core/invoices';
import { parsePence } from '../../core/money';
import { monthWords, OWED_AGE_WORDS, OWED_AGES, type InvoiceSummary } from '../../core/invoice-summary';
import { useInvoiceSearch, useInvoiceSummary, type StatusFilter } from '../api/invoices';
import { queryKeys } from '../api/query-client';
import { signedInApi } from '../api/signed-in';
import { useDebouncedValue } from '../components/admin/use-debounced-value';
import { CardProblemsList } from '../components/invoices/card-problems-list';
import { ExportForAccountant } from '../components/invoices/export-for-accountant';
import { RefundsDueList } from '../components/invoices/refunds-due-list';
import { dayWords, INVOICE_KIND_WORDS, invoiceName } from '../components/invoices/invoice-history';
import { InvoiceStatusBadge } from '../components/invoices/invoice-status-badge';
import { counted, formatPounds } from '../components/jobs/job-list-summary';
import { BackLink, PageTitle, SignedInLayout } from '../components/page-layout';
import { PageState } from '../components/page-state';
import { tallButtonStyles, cardStyles, linkStyles } from '../components/ui';

/** As the Jobs page: the server is asked once typing pauses. */
const SEARCH_PAUSE_MS = 300;

/** The columns of a row from the lg breakpoint (narrower, the fixed columns leave the customer no room): number, customer, status, total, owed, due. */
const ROW_GRID = 'lg:grid lg:grid-cols-[7rem_minmax(0,1fr)_6.5rem_7rem_7rem_11rem] lg:items-center lg:gap-x-4';

function InvoiceRow({ invoice }: { invoice: Invoice }) {
  return (
    <li className={`${cardStyles} relative flex flex-col gap-1 p-3 focus-within:ring-2 focus-within:ring-green-700 hover:border-green-700 lg:rounded-xl lg:px-4 ${ROW_GRID}`}>
      <div className="flex items-center justify-between gap-3 lg:contents">
        {/* The link covers the whole row: any part of it opens the invoice's job. */}
        <Link href={`/jobs/${invoice.jobId}`} className="font-mono text-sm font-semibold text-green-900 outline-none after:absolute after:inset-0 after:rounded-2xl after:content-[''] lg:after:rounded-xl">
          {invoiceName(invoice)}
          <span className="sr-only">{`, ${INVOICE_KIND_WORDS[invoice.kind].toLowerCase()} for ${invoice.customer.name}`}</span>
        </Link>
        <p className="font-semibold text-stone-900 tabular-nums lg:order-4 lg:text-right">{formatPounds(invoice.totals.gross)}</p>
      </div>
      <p className="font-medium break-words text-stone-900 lg:order-2">
        {invoice.customer.name}
        <span className="block text-xs font-normal text-stone-600">{INVOICE_KIND_WORDS[invoice.kind]}</span>
      </p>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-stone-700 lg:contents">
        <span className="lg:order-3">
          <InvoiceStatusBadge status={invoice.status} />
        </span>
        <span className="tabular-nums lg:order-5 lg:text-right">
          {invoice.number ? (
            <>
              <span className="lg:sr-only">Owed </span>
              {formatPounds(invoice.owed)}
            </>
          ) : (
            <span className="text-stone-600">Not issued</span>
          )}
        </span>
        <span className="lg:order-6 lg:text-right">
          {invoice.dueOn ? (
            <>
              <span className="lg:sr-only">Due </span>
              {dayWords(invoice.dueOn)}
            </>
          ) : null}
        </span>
      </div>
    </li>
  );
}

/** What is owed by how late, and this UK month's invoiced and paid: two tiles a row on a phone, four from sm. */
function Figures({ summary }: { summary: InvoiceSummary }) {
  const owedId = useId();
  const monthId = useId();
  const tile = `${cardStyles} flex min-w-0 flex-col px-3 py-2 sm:px-4 sm:py-3`;
  const amount = 'text-lg font-semibold text-stone-900 tabular-nums sm:text-xl';
  return (
    <div className="mb-6 flex flex-col gap-4">
      <section aria-labelledby={owedId}>
        <h2 id={owedId} className="mb-2 text-sm font-semibold text-stone-700">
          {`Owed to you: ${formatPounds(summary.owed)}`}
        </h2>
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4 sm:gap-3">
          {OWED_AGES.map((age) => {
            // Late money is marked in red only where there is some.
            const late = age !== 'notDue' && (parsePence(summary.owedByAge[age]) ?? 0) > 0;
            return (
              <div key={age} className={`${tile} ${late ? 'border-red-300' : ''}`}>
                <dt className={`text-sm ${late ? 'font-medium text-red-800' : 'text-stone-700'}`}>{OWED_AGE_WORDS[age]}</dt>
                <dd className={amount}>{formatPounds(summary.owedByAge[age])}</dd>
              </div>
            );
          })}
        </dl>
      </section>
      <section aria-labelledby={monthId}>
        <h2 id={monthId} className="mb-2 text-sm font-semibold text-stone-700">
          <span className="sr-only">This month: </span>
          {monthWords(summary.thisMonth.month)}
        </h2>
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4 sm:gap-3">
          <div className={tile}>
            <dt className="text-sm text-stone-700">Invoiced</dt>
            <dd className={amount}>{formatPounds(summary.thisMonth.invoiced)}</dd>
          </div>
          <div className={tile}>
            <dt className="text-sm text-stone-700">Paid</dt>
            <dd className={amount}>{formatPounds(summary.thisMonth.paid)}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}

/** All, then each status some invoice is in (and the one chosen), each with its count. */
function StatusFilters({ summary, value, onChange }: { summary: InvoiceSummary; value: StatusFilter; onChange: (status: StatusFilter) => void }) {
  const total = INVOICE_STATUSES.reduce((sum, status) => sum + summary.byStatus[status].count, 0);
  const shown = INVOICE_STATUSES.filter((status) => summary.byStatus[status].count > 0 || status === value);
  const option = (status: StatusFilter, label: string, count: number) => (
    <button
      key={status}
      type="button"
      aria-pressed={value === status}
      onClick={() => onChange(status)}
      className={`inline-flex min-h-11 items-center gap-1.5 rounded-full border px-3 py-1.5 text-sm font-medium ${
        value === status ? 'border-green-800 bg-green-800 text-white' : 'border-stone-300 bg-white text-stone-800 hover:border-green-800'
      }`}
    >
      {label} <span className={`rounded-full px-1.5 text-xs ${value === status ? 'bg-white/20' : 'bg-stone-100'}`}>{count}</span>
    </button>
  );
  return (
    <div role="group" aria-label="Show invoices by status" className="flex flex-wrap gap-2">
      {option('all', 'All', total)}
      {shown.map((status) => option(status, INVOICE_STATUS_WORDS[status], summary.byStatus[status].count))}
    </div>
  );
}

function InvoiceList({ summary }: { summary: InvoiceSummary }) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), SEARCH_PAUSE_MS);
  const invoices = useInvoiceSearch(q, status);
  // The example number is written with the account's own prefix (Settings → Getting paid), e.g. "OAK-0001".
  const settings = useQuery({ queryKey: queryKeys.settings, queryFn: signedInApi.settings.get });
  const exampleNumber = settings.data ? documentNumber(settings.data.invoicePrefix, 1) : null;
  const listed = invoices.data ?? [];
  const waiting = invoices.isPlaceholderData || q !== search.trim();

  let rows;
  if (invoices.isPending) {
    rows = <PageState kind="loading" label="Loading your invoices" className="py-10" />;
  } else if (invoices.isError) {
    rows = <PageState kind="failed" error={invoices.error} fallback="Your invoices could not be loaded." onRetry={invoices.refetch} />;
  } else if (listed.length === 0) {
    rows = (
      <p className="rounded-xl bg-stone-50 px-4 py-3 text-sm text-stone-700">
        No invoices match.{' '}
        <button
          type="button"
          className={`${linkStyles} min-h-11`}
          onClick={() => {
            setStatus('all');
            setSearch('');
          }}
        >
          Show every invoice
        </button>
      </p>
    );
  } else {
    rows = (
      <>
        <div aria-hidden="true" className={`hidden px-4 text-xs font-semibold tracking-wide text-stone-600 uppercase ${ROW_GRID}`}>
          <span>Number</span>
          <span>Customer</span>
          <span>Status</span>
          <span className="text-right">Total</span>
          <span className="text-right">Owed</span>
          <span className="text-right">Due</span>
        </div>
        <ul aria-label="Invoices" aria-busy={waiting || undefined} className={`flex flex-col gap-2 transition-opacity ${waiting ? 'opacity-60' : ''}`}>
          {listed.map((invoice) => (
            <InvoiceRow key={invoice.id} invoice={invoice} />
          ))}
        </ul>
      </>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <StatusFilters summary={summary} value={status} onChange={setStatus} />
        <div className="flex flex-col gap-1.5 sm:w-72 sm:shrink-0">
          <label htmlFor="invoice-search" className="text-sm font-medium text-stone-800">
            Search by customer or number
          </label>
          <input
            id="invoice-search"
            type="search"
            value={search}
            maxLength={200}
            onChange={(event) => setSearch(event.target.value)}
            placeholder={exampleNumber ? `Name, e-mail or ${exampleNumber}` : 'Name, e-mail or number'}
            autoComplete="off"
            className="w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base text-stone-900 shadow-xs placeholder:text-stone-500 hover:border-stone-400 focus-visible:outline-2 sm:text-sm"
          />
        </div>
      </div>
      <p role="status" className="text-sm text-stone-700">
        {invoices.isSuccess ? `${counted(listed.length, 'invoice')} listed, overdue first.` : null}
      </p>
      {rows}
    </div>
  );
}

function NoInvoices() {
  return (
    <section className={`${cardStyles} flex flex-col items-center gap-3 px-6 py-12 text-center`}>
      <span className="flex size-12 items-center justify-center rounded-full bg-green-100 text-green-800">
        <ReceiptPoundSterling aria-hidden="true" className="size-6" />
      </span>
      <h2 className="text-lg font-semibold text-stone-900">No invoices yet</h2>
      <p className="max-w-prose text-sm text-stone-700">
        Invoices are made from a job the customer has accepted: open the job and choose Make deposit invoice or Make final invoice.
      </p>
      <Link href="/jobs" className={tallButtonStyles.secondary}>
        <ClipboardList aria-hidden="true" className="size-4" />
        Go to Jobs
      </Link>
    </section>
  );
}

/**
 * Invoices (docs/product.md, Getting paid): card payments to refund and refunds due after a
 * cancellation when there are any, what is owed by how late and this month's figures,
 * every invoice by status and searchable (overdue first, the server's order), each opening its
 * job, and the accountant's export.
 */
export function InvoicesPage() {
  const summary = useInvoiceSummary();

  let content;
  if (summary.isPending) {
    content = <PageState kind="loading" label="Loading your invoices" />;
  } else if (summary.isError) {
    content = <PageState kind="failed" error={summary.error} fallback="Your invoices could not be loaded." onRetry={summary.refetch} />;
  } else if (INVOICE_STATUSES.every((status) => summary.data.byStatus[status].count === 0)) {
    content = <NoInvoices />;
  } else {
    content = (
      <>
        <Figures summary={summary.data} />
        <InvoiceList summary={summary.data} />
      </>
    );
  }

  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink />
      </div>
      <PageTitle title="Invoices" subtitle="What your customers owe you, and what they have paid." />
      <CardProblemsList />
      <RefundsDueList />
      {content}
      <ExportForAccountant />
    </SignedInLayout>
  );
}
