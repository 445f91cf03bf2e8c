import { ChevronLeft, ChevronRight, LoaderCircle } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { ADMIN_SEARCH_MAX, type AdminAccount, type AdminAccountPage } from '../../../core/admin';
import { PLANS } from '../../../core/plans';
import { useAdminAccounts } from '../../api/admin';
import { formatBillingDate } from '../billing/billing-date';
import { PageState } from '../page-state';
import { TextField } from '../text-field';
import { buttonStyles, cardStyles } from '../ui';
import { useDebouncedValue } from './use-debounced-value';

/** Long enough to finish a word, short enough to feel immediate. */
const SEARCH_PAUSE_MS = 300;

/** A cell with nothing in it: a dash to the eye, "none" to a screen reader. */
function None() {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="sr-only">none</span>
    </>
  );
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const cell = 'px-3 py-2.5 whitespace-nowrap';

function AccountRow({ account }: { account: AdminAccount }) {
  const name = `${account.firstName} ${account.lastName}`.trim();
  return (
    <tr className="border-t border-stone-200">
      {/* The username names the row; it stays in view while the rest scrolls sideways. */}
      <th scope="row" className={`${cell} sticky left-0 bg-white text-left font-semibold text-stone-900`}>
        {account.username}
      </th>
      <td className={cell}>{account.email}</td>
      <td className={cell}>{name || <None />}</td>
      <td className={cell}>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${
            account.role === 'admin' ? 'bg-amber-100 text-amber-950' : 'bg-stone-100 text-stone-800'
          }`}
        >
          {capitalised(account.role)}
        </span>
      </td>
      <td className={cell}>{formatBillingDate(account.createdAt)}</td>
      <td className={cell}>{account.subscriptionType ? PLANS[account.subscriptionType].name : <None />}</td>
      <td className={cell}>{account.subscriptionStatus ? capitalised(account.subscriptionStatus) : <None />}</td>
      <td className={`${cell} text-right tabular-nums`}>{account.tokensRemaining.toLocaleString('en-GB')}</td>
      <td className={cell}>{account.nextRefillDate ? formatBillingDate(account.nextRefillDate) : <None />}</td>
    </tr>
  );
}

const COLUMNS = ['E-mail', 'Name', 'Role', 'Created', 'Plan', 'Status', 'Credits', 'Next refill'];

function Table({ data }: { data: AdminAccountPage }) {
  const matching = data.query ? ` matching “${data.query}”` : '';
  return (
    // Focusable and named, so a keyboard user can scroll the wide table sideways at 375 px.
    // Positioned, so the screen-reader-only text in far cells (absolutely placed) scrolls with
    // the table instead of widening the whole page.
    <div
      role="region"
      aria-labelledby="accounts-caption"
      tabIndex={0}
      className="relative overflow-x-auto rounded-xl border border-stone-200 focus-visible:outline-2"
    >
      <table className="min-w-full text-left text-sm text-stone-800">
        <caption id="accounts-caption" className="sr-only">
          Accounts{matching}, newest first, page {data.page} of {Math.max(data.totalPages, 1)}
        </caption>
        <thead className="bg-stone-50 text-xs font-semibold tracking-wide text-stone-700 uppercase">
          <tr>
            <th scope="col" className={`${cell} sticky left-0 bg-stone-50`}>
              Username
            </th>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className={`${cell} ${column === 'Credits' ? 'text-right' : ''}`}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.accounts.map((account) => (
            <AccountRow key={account.id} account={account} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PageButton({ label, disabled, onClick, children }: { label: string; disabled: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      className={`${buttonStyles.secondary} aria-disabled:cursor-not-allowed aria-disabled:opacity-60`}
      aria-label={label}
      // aria-disabled, not disabled: the button at the last page keeps keyboard focus.
      aria-disabled={disabled || undefined}
      onClick={() => {
        if (!disabled) onClick();
      }}
    >
      {children}
    </button>
  );
}

function Pages({ data, onPage }: { data: AdminAccountPage; onPage: (page: number) => void }) {
  if (data.totalPages <= 1) return null;
  return (
    <nav aria-label="Account pages" className="flex items-center justify-between gap-3">
      <PageButton label="Previous page" disabled={data.page <= 1} onClick={() => onPage(data.page - 1)}>
        <ChevronLeft aria-hidden="true" className="size-4" />
        <span aria-hidden="true">Previous</span>
      </PageButton>
      <p className="text-sm text-stone-700">
        Page {data.page} of {data.totalPages}
      </p>
      <PageButton label="Next page" disabled={data.page >= data.totalPages} onClick={() => onPage(data.page + 1)}>
        <span aria-hidden="true">Next</span>
        <ChevronRight aria-hidden="true" className="size-4" />
      </PageButton>
    </nav>
  );
}

function countText(data: AdminAccountPage): string {
  if (!data.query) return `${data.total} ${data.total === 1 ? 'account' : 'accounts'}`;
  return `${data.total} ${data.total === 1 ? 'account matches' : 'accounts match'} “${data.query}”`;
}

/**
 * The accounts an admin would rather read than the log: newest first, 20 a page,
 * searched by username, e-mail or name as the admin pauses typing.
 */
export function AccountsSection() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const query = useDebouncedValue(search.trim(), SEARCH_PAUSE_MS);
  // A new search starts at its first page: the page is kept per query, and reset when the query changes.
  const [pageQuery, setPageQuery] = useState(query);
  if (pageQuery !== query) {
    setPageQuery(query);
    setPage(1);
  }
  const accounts = useAdminAccounts(query, page);

  let body;
  if (accounts.isPending) {
    body = <PageState kind="loading" label="Loading accounts" className="py-10" />;
  } else if (accounts.isError) {
    body = <PageState kind="failed" error={accounts.error} fallback="The accounts could not be loaded." onRetry={accounts.refetch} />;
  } else if (accounts.data.accounts.length === 0) {
    body = <p className="rounded-xl border border-dashed border-stone-300 px-4 py-8 text-center text-sm text-stone-700">No accounts match your search.</p>;
  } else {
    body = (
      <>
        <Table data={accounts.data} />
        <Pages data={accounts.data} onPage={setPage} />
      </>
    );
  }

  return (
    <section aria-labelledby="accounts-heading" className={`${cardStyles} flex flex-col gap-4 p-5 sm:p-6`}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id="accounts-heading" className="text-lg font-semibold text-stone-900">
            Accounts
          </h2>
          <p role="status" className="mt-1 flex items-center gap-2 text-sm text-stone-700">
            {accounts.data ? countText(accounts.data) : null}
            {/* The count above is what is announced; the turning icon is for the eye. */}
            {accounts.isPlaceholderData ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin text-green-800" /> : null}
          </p>
        </div>
        <TextField
          type="search"
          label="Search accounts"
          hint="Username, e-mail or name"
          value={search}
          maxLength={ADMIN_SEARCH_MAX}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setSearch(event.target.value)}
          className="sm:w-72"
        />
      </div>
      {body}
    </section>
  );
}
