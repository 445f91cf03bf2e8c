import { Camera } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { JOB_PHOTO_KINDS, type JobPhoto, type JobPhotoKind, type JobSheet } from '../../core/crew-day';
import { photoToSend } from '../../core/photo-shrink';
import { cardStyles, tallButtonStyles } from '../components/ui';
import { crewPaths } from './api';
import { useQueueChange, useWaitingFor } from './use-outbox';

const KIND_WORDS: Record<JobPhotoKind, string> = { before: 'Before', after: 'After' };

/** A picture kept on the phone, shown from its Blob until it is sent. */
function WaitingPhoto({ blob, alt }: { blob: Blob; alt: string }) {
  const url = useMemo(() => URL.createObjectURL(blob), [blob]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return <img src={url} alt={alt} className="aspect-square w-full rounded-lg object-cover opacity-80" />;
}

/**
 * Before and after photos (docs/product.md, The crew's day): shrunk on the phone first as the
 * estimator does (core/photo-shrink.ts), kept in the outbox, sent when there is signal.
 */
export function PhotosCard({ sheet, photos }: { sheet: JobSheet; photos: JobPhoto[] }) {
  const queue = useQueueChange();
  const waiting = useWaitingFor(sheet.jobId).filter((i) => i.kind === 'photo' && i.photo);
  const inputs = { before: useRef<HTMLInputElement>(null), after: useRef<HTMLInputElement>(null) };
  const [busy, setBusy] = useState(false);

  const add = async (kind: JobPhotoKind, file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      const photo = await photoToSend(file);
      await queue({ jobId: sheet.jobId, kind: 'photo', method: 'POST', path: crewPaths.photos(sheet.jobId), photo: { blob: photo, name: photo.name, kind }, label: `${KIND_WORDS[kind]} photo for ${sheet.reference}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="photos-title" className={`${cardStyles} flex flex-col gap-4 p-4`} data-testid="photos">
      <h2 id="photos-title" className="text-lg font-semibold text-stone-900">
        Photos
      </h2>
      {JOB_PHOTO_KINDS.map((kind) => {
        const sent = photos.filter((p) => p.kind === kind);
        const kept = waiting.filter((i) => i.photo?.kind === kind);
        return (
          <div key={kind} className="flex flex-col gap-2">
            <h3 className="font-medium text-stone-900">{KIND_WORDS[kind]}</h3>
            {sent.length + kept.length > 0 ? (
              <ul className="grid grid-cols-3 gap-2">
                {sent.map((p) => (
                  <li key={p.id}>
                    <img src={p.url} alt={`${KIND_WORDS[kind]} photo by ${p.takenBy}`} className="aspect-square w-full rounded-lg object-cover" loading="lazy" />
                  </li>
                ))}
                {kept.map((i) => (
                  <li key={i.id}>
                    <WaitingPhoto blob={i.photo!.blob} alt={`${KIND_WORDS[kind]} photo waiting to send`} />
                  </li>
                ))}
              </ul>
            ) : null}
            <input
              ref={inputs[kind]}
              type="file"
              accept="image/*"
              capture="environment"
              className="sr-only"
              tabIndex={-1}
              aria-hidden="true"
              data-testid={`photo-input-${kind}`}
              onChange={(e) => {
                void add(kind, e.target.files?.[0]);
                e.target.value = '';
              }}
            />
            <button type="button" className={`${tallButtonStyles.secondary} w-full`} disabled={busy} onClick={() => inputs[kind].current?.click()}>
              <Camera aria-hidden="true" className="size-4" />
              {kind === 'after' ? 'Take an after photo' : 'Take a before photo'}
            </button>
          </div>
        );
      })}
    </section>
  );
}
