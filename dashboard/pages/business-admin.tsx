import { Building2, Home, Plus, Settings } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { Business } from '../../core/business';
import { useBusinesses } from '../api/businesses';
import { BusinessCard } from '../components/business/business-card';
import { CreateBusinessForm } from '../components/business/create-business-form';
import { DeleteBusinessDialog } from '../components/business/delete-business-dialog';
import { PageTitle, SignedInLayout } from '../components/page-layout';
import { PageState } from '../components/page-state';
import { buttonStyles, cardStyles, linkStyles } from '../components/ui';

/** Business Admin links to Home and to Settings. */
function PageNav() {
  return (
    <nav aria-label="Business Admin" className="mb-4 flex flex-wrap gap-x-5 gap-y-2 text-sm">
      <Link href="/" className={`inline-flex items-center gap-1.5 ${linkStyles}`}>
        <Home aria-hidden="true" className="size-4" />
        Home
      </Link>
      <Link href="/settings" className={`inline-flex items-center gap-1.5 ${linkStyles}`}>
        <Settings aria-hidden="true" className="size-4" />
        Settings
      </Link>
    </nav>
  );
}

function NoBusinesses() {
  return (
    <section className={`${cardStyles} flex flex-col items-center gap-3 px-6 py-12 text-center`}>
      <span className="flex size-12 items-center justify-center rounded-full bg-green-100 text-green-800">
        <Building2 aria-hidden="true" className="size-6" />
      </span>
      <h2 className="text-lg font-semibold text-stone-900">No businesses yet</h2>
      <p className="max-w-prose text-sm text-stone-700">
        Add a business to get an estimator for your own website: your hourly rate, locked, and your instructions for the
        AI. Visitors get a time and cost estimate from a photo and can ask you for a quote.
      </p>
    </section>
  );
}

/**
 * Business Admin (docs/product.md, Embed widget): the user's own business
 * configurations, each an estimator other websites can embed, with its quote requests.
 */
export function BusinessAdminPage() {
  const businesses = useBusinesses();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Business | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);

  const formClosed = useRef(false);

  useEffect(() => {
    if (!creating && formClosed.current) {
      formClosed.current = false;
      addButton.current?.focus();
    }
  }, [creating]);

  function closeForm() {
    formClosed.current = true;
    setCreating(false);
  }

  let list;
  if (businesses.isPending) {
    list = <PageState kind="loading" label="Loading your businesses" />;
  } else if (businesses.isError) {
    list = <PageState kind="failed" error={businesses.error} fallback="Your businesses could not be loaded." onRetry={businesses.refetch} />;
  } else if (businesses.data.length === 0) {
    list = creating ? null : <NoBusinesses />;
  } else {
    list = (
      <div className="flex flex-col gap-6">
        {businesses.data.map((business) => (
          <BusinessCard key={business.id} business={business} onDelete={setDeleting} />
        ))}
      </div>
    );
  }

  return (
    <SignedInLayout>
      <PageNav />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <PageTitle title="Business Admin" subtitle="Put the estimator on your own website, at your rate." />
        {/* While the form is open it has its own Cancel; the button comes back, focused, when it closes. */}
        {creating ? null : (
          <button
            ref={addButton}
            type="button"
            className={`${buttonStyles.primary} mb-6 shrink-0`}
            onClick={() => setCreating(true)}
          >
            <Plus aria-hidden="true" className="size-4" />
            Add Business
          </button>
        )}
      </div>

      {creating ? (
        <div className="mb-8">
          <CreateBusinessForm id="new-business" onCreated={closeForm} onCancel={closeForm} />
        </div>
      ) : null}

      <h2 ref={listHeading} tabIndex={-1} className="sr-only">
        Your businesses
      </h2>
      {list}

      <DeleteBusinessDialog business={deleting} onClose={() => setDeleting(null)} returnFocusRef={listHeading} />
    </SignedInLayout>
  );
}
