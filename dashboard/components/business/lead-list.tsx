import { CircleCheck, ClipboardList, Inbox, Mail, MapPin, Phone, RefreshCw, TreePine } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import type { Business, Lead } from '../../../core/business';
import { jobReference } from '../../../core/jobs';
import { CONTACT_METHOD_LABELS, CONTACT_TIME_LABELS } from '../../../core/contact-preference';
import { formatTotalTime } from '../../../core/format';
import { formatLeadTotal } from '../../../core/lead-total';
import { formatPrice } from '../../../core/price';
import { useLeads, useSetLeadContacted } from '../../api/businesses';
import { errorMessage } from '../../api/client';
import { useCreateJob } from '../../api/jobs';
import { ErrorAlert } from '../alert';
import { formatAnalysisDate } from '../analysis/analysis-date';
import { PageState } from '../page-state';
import { showErrorToast, showToast } from '../toast';
import { buttonStyles, linkStyles } from '../ui';

/** "22 Nov 2025", in the viewer's time zone. */
function formatDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString('en-GB', { dateStyle: 'medium' });
}

function Estimate({ estimate }: { estimate: NonNullable<Lead['estimate']> }) {
  const cost = estimate.price ? formatPrice(estimate.price) : null;
  return (
    <>
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-stone-800">
        <div className="flex gap-1">
          <dt className="text-stone-600">Tree:</dt>
          <dd className="font-medium">{estimate.species ?? 'Not sure'}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="text-stone-600">Time:</dt>
          <dd className="font-medium">{formatTotalTime(estimate.totalMinutes)}</dd>
        </div>
        {cost ? (
          <div className="flex gap-1">
            <dt className="text-stone-600">Estimate:</dt>
            <dd className="font-medium">{cost}</dd>
          </div>
        ) : null}
      </dl>
      {estimate.assumed.length > 0 ? (
        <p className="text-sm text-stone-700">
          <span className="font-semibold">Priced for (not answered): </span>
          {estimate.assumed.join('; ')}
        </p>
      ) : null}
      {estimate.siteVisitReason ? (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
          <span className="font-semibold">Site visit recommended: </span>
          {estimate.siteVisitReason}
        </p>
      ) : null}
    </>
  );
}

/**
 * Every answer the visitor gave the estimator, tree then site: question over answer on a phone,
 * side by side where there is room.
 */
function Answers({ lead, answers, tree }: { lead: Lead; answers: NonNullable<Lead['estimate']>['answers']; tree?: number }) {
  if (answers.length === 0) return null;
  const id = `lead-${lead.id}-answers${tree === undefined ? '' : `-${tree}`}`;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-stone-200 px-3 py-2">
      <h5 id={id} className="text-sm font-semibold text-stone-900">
        {tree === undefined ? 'Their answers' : `Their answers for tree ${tree}`}
      </h5>
      <dl className="mt-1 grid grid-cols-1 gap-x-4 text-sm sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        {answers.map(({ question, answer }) => (
          <div key={question} className="contents">
            <dt className="pt-1.5 text-stone-600 sm:pb-1.5">{question}</dt>
            <dd className="pb-1.5 font-medium break-words text-stone-900 sm:pt-1.5">{answer}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** How and when the visitor would like to hear back, when they said. */
function ContactPreference({ lead }: { lead: Lead }) {
  if (!lead.contactMethod && !lead.contactTime) return null;
  return (
    <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-stone-800">
      {lead.contactMethod ? (
        <div className="flex gap-1">
          <dt className="text-stone-600">Prefers:</dt>
          <dd className="font-medium">{CONTACT_METHOD_LABELS[lead.contactMethod]}</dd>
        </div>
      ) : null}
      {lead.contactTime ? (
        <div className="flex gap-1">
          <dt className="text-stone-600">Best time:</dt>
          <dd className="font-medium">{CONTACT_TIME_LABELS[lead.contactTime]}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/**
 * The contacted mark. One button whose words change, so keyboard focus stays on it
 * after a press; the status line beside it is announced.
 */
function ContactedToggle({ businessId, lead }: { businessId: number; lead: Lead }) {
  const setContacted = useSetLeadContacted(businessId);
  const contacted = lead.contactedAt !== null;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <p role="status" className={`inline-flex items-center gap-1 text-sm ${contacted ? 'text-green-900' : 'text-stone-600'}`}>
        {contacted && lead.contactedAt ? (
          <>
            <CircleCheck aria-hidden="true" className="size-4" />
            {`Contacted on ${formatDay(lead.contactedAt)}`}
          </>
        ) : (
          'Not contacted yet'
        )}
      </p>
      <button
        type="button"
        className={`${buttonStyles.secondary} px-3 py-1.5`}
        // Not `disabled` while saving: a disabled button drops keyboard focus.
        aria-disabled={setContacted.isPending || undefined}
        aria-busy={setContacted.isPending || undefined}
        onClick={() =>
          !setContacted.isPending &&
          setContacted.mutate(
            { leadId: lead.id, contacted: !contacted },
            {
              onError: (error) =>
                showErrorToast({ title: 'Failed to update the quote request', description: errorMessage(error, 'Please try again.') }),
            },
          )
        }
      >
        {contacted ? 'Mark as not contacted' : 'Mark as contacted'}
        <span className="sr-only">{`: ${lead.name}`}</span>
      </button>
    </div>
  );
}

/**
 * docs/product.md, The Jobs pages: a job (the surgeon's quote) from the lead, with every tree and the
 * customer's details, opened at once; once made, the lead links to its newest job instead (the
 * server names it with the lead).
 */
function LeadJob({ lead }: { lead: Lead }) {
  const create = useCreateJob();
  const [, navigate] = useLocation();
  if (lead.jobId !== null) {
    return (
      <Link href={`/jobs/${lead.jobId}`} className={`inline-flex items-center gap-1 text-sm ${linkStyles}`}>
        <ClipboardList aria-hidden="true" className="size-4" />
        {`Open job ${jobReference(lead.jobId)}`}
        <span className="sr-only">{` for ${lead.name}`}</span>
      </Link>
    );
  }
  return (
    <button
      type="button"
      className={`${buttonStyles.primary} px-3 py-1.5`}
      aria-disabled={create.isPending || undefined}
      aria-busy={create.isPending || undefined}
      onClick={() =>
        !create.isPending &&
        create.mutate(
          { leadId: lead.id },
          {
            onSuccess: (made) => {
              showToast({ title: 'Job made', description: `${made.reference} for ${made.customer.name}` });
              navigate(`/jobs/${made.id}`);
            },
            onError: (error) => showErrorToast({ title: 'The job could not be made', description: errorMessage(error, 'Please try again.') }),
          },
        )
      }
    >
      <ClipboardList aria-hidden="true" className="size-4" />
      Make a job<span className="sr-only">{` for ${lead.name}`}</span>
    </button>
  );
}

/**
 * Where the job is: the postcode, the address when given, and "Outside your area" when the
 * postcode was outside the districts the business listed at the time of the request.
 */
function LeadPlace({ lead }: { lead: Lead }) {
  if (!lead.postcode && !lead.address) return null;
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-800">
      <MapPin aria-hidden="true" className="size-4 shrink-0 text-stone-600" />
      <span className="sr-only">Where: </span>
      {lead.postcode ? <span className="font-medium">{lead.postcode}</span> : null}
      {lead.address ? <span className="min-w-0 break-words">{lead.address}</span> : null}
      {lead.outsideArea ? (
        <span className="rounded-full border border-amber-300 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900">Outside your area</span>
      ) : null}
    </p>
  );
}

/**
 * docs/product.md, Business Admin: a request carrying several trees lists each (its photo, species
 * or "Not sure", price, what it was priced for and the visitor's answers), then their total.
 */
function LeadTrees({ lead }: { lead: Lead }) {
  const total = formatLeadTotal(lead.trees.map(({ estimate }) => estimate?.price ?? null));
  return (
    <>
      <ol aria-label={`Trees in the request from ${lead.name}`} className="flex flex-col gap-2">
        {lead.trees.map(({ analysisId, estimate }, i) => (
          <li key={analysisId ?? `removed-${i}`} className="flex gap-3 rounded-lg border border-stone-200 p-2 sm:p-3">
            {estimate ? (
              <img
                src={estimate.imageUrl}
                alt={`Tree ${i + 1} photo sent by ${lead.name}`}
                loading="lazy"
                className="size-12 shrink-0 rounded-md bg-stone-100 object-cover sm:size-16"
              />
            ) : (
              <span className="flex size-12 shrink-0 items-center justify-center rounded-md bg-stone-100 text-stone-500 sm:size-16">
                <TreePine aria-hidden="true" className="size-5" />
              </span>
            )}
            <div className="flex min-w-0 flex-1 flex-col gap-1.5">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <h5 className="text-sm font-semibold text-stone-900">{`Tree ${i + 1} of ${lead.trees.length}`}</h5>
                {analysisId !== null ? (
                  <Link href={`/history/${analysisId}`} className={`text-sm ${linkStyles}`}>
                    View analysis<span className="sr-only">{` of tree ${i + 1} for ${lead.name}`}</span>
                  </Link>
                ) : null}
              </div>
              {estimate ? <Estimate estimate={estimate} /> : <p className="text-sm text-stone-600">The estimate was removed.</p>}
              {estimate ? <Answers lead={lead} answers={estimate.answers} tree={i + 1} /> : null}
            </div>
          </li>
        ))}
      </ol>
      {total ? (
        <p className="text-sm text-stone-800">
          <span className="text-stone-600">{`Total for ${lead.trees.length} trees: `}</span>
          <span className="font-semibold">{total}</span>
        </p>
      ) : null}
    </>
  );
}

function LeadItem({ businessId, lead }: { businessId: number; lead: Lead }) {
  const several = lead.trees.length > 1;
  return (
    <li className={`flex gap-3 rounded-xl border p-3 sm:gap-4 sm:p-4 ${lead.contactedAt ? 'border-stone-200' : 'border-green-300 bg-green-50/40'}`}>
      {several ? (
        // On a phone the trees below need the width; "Tree 1 of 2" already says how many.
        <span className="hidden size-24 shrink-0 flex-col items-center justify-center rounded-lg bg-green-50 text-green-900 sm:flex">
          <TreePine aria-hidden="true" className="size-6" />
          <span className="text-sm font-semibold">{`${lead.trees.length} trees`}</span>
        </span>
      ) : lead.estimate ? (
        <img
          src={lead.estimate.imageUrl}
          alt={`Tree photo sent by ${lead.name}`}
          loading="lazy"
          className="size-16 shrink-0 rounded-lg bg-stone-100 object-cover sm:size-24"
        />
      ) : (
        <span className="flex size-16 shrink-0 items-center justify-center rounded-lg bg-stone-100 text-stone-500 sm:size-24">
          <TreePine aria-hidden="true" className="size-6" />
        </span>
      )}
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <h4 className="font-semibold break-words text-stone-900">{lead.name}</h4>
          <p className="text-sm text-stone-600">
            <time dateTime={lead.createdAt}>{formatAnalysisDate(lead.createdAt)}</time>
          </p>
        </div>
        <ul aria-label={`How to reach ${lead.name}`} className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {lead.email ? (
            <li className="min-w-0">
              <a href={`mailto:${lead.email}`} className={`inline-flex items-center gap-1 break-all ${linkStyles}`}>
                <Mail aria-hidden="true" className="size-4 shrink-0" />
                {lead.email}
              </a>
            </li>
          ) : null}
          {lead.phone ? (
            <li>
              <a href={`tel:${lead.phone.replace(/[^\d+]/g, '')}`} className={`inline-flex items-center gap-1 ${linkStyles}`}>
                <Phone aria-hidden="true" className="size-4 shrink-0" />
                {lead.phone}
              </a>
            </li>
          ) : null}
        </ul>
        <LeadPlace lead={lead} />
        <ContactPreference lead={lead} />
        {several ? null : lead.estimate ? <Estimate estimate={lead.estimate} /> : <p className="text-sm text-stone-600">The estimate was removed.</p>}
        {lead.note ? (
          <p className="rounded-lg bg-stone-100 px-3 py-2 text-sm break-words whitespace-pre-line text-stone-800">{lead.note}</p>
        ) : null}
        {several ? <LeadTrees lead={lead} /> : lead.estimate ? <Answers lead={lead} answers={lead.estimate.answers} /> : null}
        <div className="mt-1 flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
          <ContactedToggle businessId={businessId} lead={lead} />
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            {!several && lead.analysisId !== null ? (
              <Link href={`/history/${lead.analysisId}`} className={`text-sm ${linkStyles}`}>
                View analysis<span className="sr-only">{` for ${lead.name}`}</span>
              </Link>
            ) : null}
            <LeadJob lead={lead} />
          </div>
        </div>
      </div>
    </li>
  );
}

/** docs/product.md, Embed widget: the quote requests a business's estimator collected, newest first. Only its owner sees them. */
export function LeadList({ business }: { business: Business }) {
  const leads = useLeads(business.id);
  const headingId = `business-${business.id}-leads`;
  let content;
  if (leads.isPending) {
    content = <PageState kind="loading" label="Loading quote requests" className="py-6" />;
  } else if (leads.isError) {
    content = <ErrorAlert>{errorMessage(leads.error, 'The quote requests could not be loaded.')}</ErrorAlert>;
  } else if (leads.data.length === 0) {
    content = (
      <p className="flex items-start gap-2 rounded-xl bg-stone-50 px-4 py-3 text-sm text-stone-700">
        <Inbox aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        No quote requests yet. When a visitor to your website asks for a quote after an estimate, their details, photo and
        estimate appear here, and you get an e-mail.
      </p>
    );
  } else {
    content = (
      <ul aria-labelledby={headingId} className="flex flex-col gap-3">
        {leads.data.map((lead) => (
          <LeadItem key={lead.id} businessId={business.id} lead={lead} />
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby={headingId} className="border-t border-stone-200 pt-4">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold text-stone-900">
          {`Quote Requests${leads.data && leads.data.length > 0 ? ` (${leads.data.length})` : ''}`}
        </h3>
        {/* Nothing polls, so new requests are fetched when asked for. */}
        <button
          type="button"
          className={`${buttonStyles.quiet} px-3 py-1.5`}
          onClick={() => void leads.refetch()}
          disabled={leads.isFetching}
        >
          <RefreshCw aria-hidden="true" className={`size-4 ${leads.isFetching ? 'animate-spin' : ''}`} />
          Refresh<span className="sr-only">{` quote requests for ${business.name}`}</span>
        </button>
      </div>
      {content}
    </section>
  );
}
