import { Bird, MapPin, Phone, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatBookingDate } from '../../core/booking-dates';
import type { JobSheet } from '../../core/crew-day';
import { BackLink } from '../components/page-title';
import { PageState } from '../components/page-state';
import { cardStyles, linkStyles, tallButtonStyles } from '../components/ui';
import { useRouteId } from '../components/use-route-id';
import { useJobPhotos, useJobSheet, useSiteCheck } from './sheet-api';
import { CrewPage, SavedCopyNote } from './crew-frame';
import { PhotosCard } from './photos-card';
import { SiteCheckCard } from './site-check-card';
import { WorkCard } from './work-card';

function Card({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={`${cardStyles} flex flex-col gap-3 p-4`}>
      <h2 id={id} className="text-lg font-semibold text-stone-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Notes({ label, text }: { label: string; text: string | null }) {
  if (!text) return null;
  return (
    <div>
      <h3 className="text-sm font-semibold text-stone-900">{label}</h3>
      <p className="text-sm whitespace-pre-line text-stone-800">{text}</p>
    </div>
  );
}

/** Who, where and how to get in: the call and the map a tap away. */
function SiteCard({ sheet }: { sheet: JobSheet }) {
  return (
    <Card title="The site" id="site-title">
      <p className="font-semibold text-stone-900">{sheet.customer.name}</p>
      {sheet.customer.phone ? (
        <a href={`tel:${sheet.customer.phone.replace(/[^\d+]/g, '')}`} className={`${tallButtonStyles.secondary} w-full`} aria-label={`Call ${sheet.customer.name} on ${sheet.customer.phone}`}>
          <Phone aria-hidden="true" className="size-4" />
          Call {sheet.customer.phone}
        </a>
      ) : null}
      <p className="text-sm break-words text-stone-800">
        {sheet.siteAddress}
        {sheet.postcode && !sheet.siteAddress.includes(sheet.postcode) ? `, ${sheet.postcode}` : ''}
      </p>
      {sheet.mapUrl ? (
        <a href={sheet.mapUrl} target="_blank" rel="noreferrer" className={`${tallButtonStyles.secondary} w-full`}>
          <MapPin aria-hidden="true" className="size-4" />
          Open the map (OpenStreetMap)
        </a>
      ) : null}
      {sheet.what3words ? (
        <p className="text-sm text-stone-800">
          what3words: <span className="font-mono">{sheet.what3words.startsWith('///') ? sheet.what3words : `///${sheet.what3words}`}</span>
        </p>
      ) : null}
      {sheet.booking ? (
        <p className="text-sm text-stone-800">
          Booked {formatBookingDate(sheet.booking.date, 'long')}, start {sheet.booking.startTime}
          {sheet.booking.days > 1 ? `, ${sheet.booking.days} days` : ''}
        </p>
      ) : null}
      <Notes label="Access" text={sheet.accessNotes} />
      <Notes label="Booking note" text={sheet.bookingNote} />
    </Card>
  );
}

function TreesCard({ sheet }: { sheet: JobSheet }) {
  if (sheet.trees.length === 0 && sheet.lines.length === 0) return null;
  return (
    <Card title="The work" id="trees-title">
      <ul className="flex flex-col gap-4" data-testid="trees">
        {sheet.trees.map((tree) => (
          <li key={tree.itemId} className="flex gap-3 border-b border-stone-100 pb-3 last:border-0">
            {tree.photoUrl ? <img src={tree.photoUrl} alt={`The ${tree.kind}`} className="size-20 shrink-0 rounded-lg object-cover" loading="lazy" /> : null}
            <div className="flex min-w-0 flex-col gap-1 text-sm text-stone-800">
              <p className="font-semibold text-stone-900">{tree.kind}</p>
              <p>
                {[tree.heightM !== null ? `${tree.heightM} m tall` : null, tree.trunkCm !== null ? `trunk ${tree.trunkCm} cm` : null].filter(Boolean).join(', ') || 'Size not measured'}
              </p>
              <p className="break-words">{tree.work}</p>
              {tree.protection ? (
                <p className="flex items-start gap-1 text-amber-900">
                  <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                  {tree.protection}
                </p>
              ) : null}
              {tree.nestingCheck ? (
                <p className="flex items-start gap-1 text-amber-900">
                  <Bird aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                  {tree.nestingCheck}
                </p>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      {sheet.lines.length > 0 ? (
        <ul className="ml-5 list-disc text-sm text-stone-800">
          {sheet.lines.map((line) => (
            <li key={line.itemId}>{line.description}</li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}

function CrewCard({ sheet }: { sheet: JobSheet }) {
  if (!sheet.crew) return null;
  return (
    <Card title={`Crew: ${sheet.crew.name}`} id="crew-title">
      <p className="text-sm text-stone-800">{sheet.crew.members.map((m) => m.name).join(', ') || 'Nobody in this crew yet'}</p>
      {sheet.crew.kit.length > 0 ? (
        <>
          <h3 className="text-sm font-semibold text-stone-900">Kit</h3>
          <ul className="ml-5 list-disc text-sm text-stone-800">
            {sheet.crew.kit.map((k) => (
              <li key={k.name}>
                {k.name}
                {k.windLimitMs !== null ? ` (not above ${k.windLimitMs} m/s wind)` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Card>
  );
}

/** The job sheet (docs/product.md, The crew's day): everything needed on site, nothing about money. */
export function JobSheetPage() {
  const id = useRouteId() ?? 0;
  const sheet = useJobSheet(id);
  const check = useSiteCheck(id);
  const photos = useJobPhotos(id);
  const back = (
    <div className="mb-3">
      <BackLink href="/my-days">Back to My days</BackLink>
    </div>
  );
  const read = sheet.read;
  return (
    <CrewPage title={read ? read.data.reference : 'Job sheet'} subtitle={read?.data.customer.name} back={back}>
      {read ? (
        <div className="flex flex-col gap-4" data-testid="job-sheet">
          <SavedCopyNote asOf={read.asOf} fromSaved={sheet.fromSaved} />
          <SiteCard sheet={read.data} />
          <TreesCard sheet={read.data} />
          <SiteCheckCard key={check.read ? `c${check.read.asOf}` : 'none'} sheet={read.data} check={check.read?.data.siteCheck ?? null} />
          <WorkCard sheet={read.data} asOf={read.asOf} />
          <PhotosCard sheet={read.data} photos={photos.read?.data.photos ?? []} />
          <CrewCard sheet={read.data} />
          <p className="text-sm">
            <a href={`/api/jobs/${id}/site-check.pdf`} className={linkStyles}>
              The site check as a PDF
            </a>
          </p>
        </div>
      ) : sheet.query.isError ? (
        <PageState kind="not-found" title="Job sheet not found" error={sheet.query.error} fallback="This job is not booked to a crew you are in." back={{ href: '/my-days', label: 'Back to My days' }} />
      ) : (
        <PageState kind="loading" label="Loading the job sheet" />
      )}
    </CrewPage>
  );
}
