import { Pencil, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Business } from '../../../core/business';
import { formatGbp, parsePence } from '../../../core/money';
import { UNIT_SYSTEM_LABELS } from '../../../core/units';
import { pricingSummary } from '../pricing/pricing-form';
import { buttonStyles, cardStyles } from '../ui';
import { DEFAULT_ACCENT } from './business-form-schema';
import { EditBusinessForm } from './edit-business-form';
import { EmbedCode } from './embed-code';
import { FunnelCard } from './funnel-card';
import { LeadList } from './lead-list';

function Setting({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 border-b border-stone-100 py-2.5 last:border-b-0 sm:flex-row sm:gap-4">
      <dt className="text-sm font-medium text-stone-600 sm:w-36 sm:shrink-0">{term}</dt>
      <dd className="min-w-0 text-sm break-words text-stone-900">{children}</dd>
    </div>
  );
}

function Swatch({ color }: { color: string }) {
  return <span aria-hidden="true" className="inline-block size-4 rounded border border-stone-300 align-[-3px]" style={{ background: color }} />;
}

/** Today's analyses against the cap; at the cap the estimator tells visitors it is busy until tomorrow. */
function Usage({ business }: { business: Business }) {
  const full = business.analysesToday >= business.dailyCap;
  return (
    <p
      className={`inline-flex w-fit rounded-full px-3 py-1 text-sm font-medium ${
        full ? 'bg-amber-100 text-amber-950' : 'bg-green-50 text-green-900'
      }`}
    >
      {`Today: ${business.analysesToday} of ${business.dailyCap} analyses`}
      {full ? ' (cap reached until midnight UTC)' : ''}
    </p>
  );
}

function SavedSettings({ business }: { business: Business }) {
  const rate = parsePence(business.hourlyRate);
  return (
    <dl>
      <Setting term="Hourly rate">{rate === undefined ? business.hourlyRate : `${formatGbp(rate)} an hour`}</Setting>
      <Setting term="Daily cap">{`${business.dailyCap} analyses a day`}</Setting>
      <Setting term="Units">{UNIT_SYSTEM_LABELS[business.units]}</Setting>
      <Setting term="Prices">{business.pricing ? pricingSummary(business.pricing) : "Your Settings' pricing rules"}</Setting>
      <Setting term="Postcode districts">
        {business.serviceDistricts.length === 0 ? 'Anywhere' : business.serviceDistricts.join(', ')}
      </Setting>
      <Setting term="Allowed sites">
        {business.allowedOrigins.length === 0 ? (
          'Any website'
        ) : (
          <ul className="font-mono text-xs">
            {business.allowedOrigins.map((origin) => (
              <li key={origin} className="break-all">
                {origin}
              </li>
            ))}
          </ul>
        )}
      </Setting>
      <Setting term="Accent colour">
        <span className="inline-flex items-center gap-2">
          <Swatch color={business.accentColor ?? DEFAULT_ACCENT} />
          {business.accentColor ?? 'Default green'}
        </span>
      </Setting>
      <Setting term="AI instructions">
        {business.aiInstructions ? (
          <span className="whitespace-pre-line">{business.aiInstructions}</span>
        ) : (
          <span className="text-stone-600">None</span>
        )}
      </Setting>
    </dl>
  );
}

interface BusinessCardProps {
  business: Business;
  onDelete: (business: Business) => void;
}

/**
 * One business configuration: its settings, editable in place; its embed code,
 * Preview and Delete; and the quote requests its estimator collected.
 */
export function BusinessCard({ business, onDelete }: BusinessCardProps) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const leftEditing = useRef(false);
  const titleId = `business-${business.id}-title`;

  // Back from the form, focus returns to the Edit button that opened it, not to the page's top.
  useEffect(() => {
    if (!editing && leftEditing.current) {
      leftEditing.current = false;
      editButton.current?.focus();
    }
  }, [editing]);

  function stopEditing() {
    leftEditing.current = true;
    setEditing(false);
  }

  return (
    <article aria-labelledby={titleId} className={`${cardStyles} flex flex-col gap-5 p-4 sm:p-6`}>
      <header className="flex flex-col gap-2">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h2 id={titleId} className="min-w-0 text-xl font-bold break-words text-green-900">
            {business.name}
          </h2>
          <p className="min-w-0 font-mono text-sm break-all text-stone-700">
            <span className="sr-only">Slug: </span>
            {business.slug}
          </p>
        </div>
        <Usage business={business} />
      </header>

      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby={`${titleId}-settings`} className="min-w-0">
          <div className="mb-2 flex items-center justify-between gap-2">
            <h3 id={`${titleId}-settings`} className="font-semibold text-stone-900">
              Settings
            </h3>
            {editing ? null : (
              <button ref={editButton} type="button" className={buttonStyles.quiet} onClick={() => setEditing(true)}>
                <Pencil aria-hidden="true" className="size-4" />
                Edit
                <span className="sr-only">{` settings of ${business.name}`}</span>
              </button>
            )}
          </div>
          {editing ? <EditBusinessForm business={business} onDone={stopEditing} /> : <SavedSettings business={business} />}
        </section>

        <section aria-labelledby={`${titleId}-embed`} className="min-w-0">
          <h3 id={`${titleId}-embed`} className="mb-2 font-semibold text-stone-900">
            Put it on your website
          </h3>
          <EmbedCode slug={business.slug} name={business.name} />
        </section>
      </div>

      <div>
        <button type="button" className={buttonStyles.dangerOutline} onClick={() => onDelete(business)}>
          <Trash2 aria-hidden="true" className="size-4" />
          Delete Business
        </button>
      </div>

      <FunnelCard business={business} />
      <LeadList business={business} />
    </article>
  );
}
