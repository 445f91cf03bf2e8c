import { Camera, ImageUp, ImageIcon, ScanSearch, Trees, X } from 'lucide-react';
import { lazy, Suspense, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { formatFileSize } from '../../core/photo-check';
import { ACCEPTED_IMAGE_TYPES, MAX_DESCRIPTION_CHARS } from '../../core/upload-rules';

/**
 * The photo's one rule in a homeowner's words: a phone's own photos are the types taken
 * (ACCEPTED_IMAGE_TYPES), so a list of file formats tells them nothing; the size is what can
 * still go wrong (MAX_UPLOAD_BYTES, 10 MB).
 */
const PHOTO_HINT = 'Any photo from your phone or camera, up to 10 MB.';
import { TextAreaField } from '../components/text-field';
import type { QuestionsPanelProps } from '../questions/questions-panel';
import { ViewHeading } from '../components/view-heading';
import { buttonStyles, hintStyles } from '../ui';

/** The questions, their pictures and the species list: a chunk fetched once a photo is chosen. */
const QuestionsPanel = lazy(() => import('../questions/questions-panel'));

interface UploadViewProps {
  businessName: string;
  file: File | null;
  /** Why the last chosen file was refused (core/photo-check.ts), shown until another is chosen. */
  problem: string | null;
  description: string;
  onChoose: (files: File[]) => void;
  onRemove: () => void;
  onDescriptionChange: (text: string) => void;
  onAnalyze: () => void;
  focus: boolean;
  /** The questions after the photo: the visitor's answers and how to change them. */
  answers: Omit<QuestionsPanelProps, 'file'>;
  /** Trees already priced in this visit: this photo is the next one. */
  treesSoFar: number;
  /** The site answers were kept from the tree before. */
  siteKept: boolean;
  /** Back to the trees priced so far, without adding this one. */
  onBackToTrees: () => void;
}

/** A phone or a tablet: a finger, no mouse. Photos come from the camera or the gallery, never dragged. */
function isTouchScreen(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches && !matchMedia('(any-pointer: fine)').matches;
}

/**
 * docs/product.md, Embed widget: a photo ("Take a photo" or "Choose a photo" on a phone), optional
 * "Anything else we should know?", and "Get my price"; once the photo is chosen, the questions a homeowner
 * answers with a tap each, so a photo and taps give a price with nothing typed. For the next tree
 * of a visit, the trees so far are one tap away and the site answers are kept.
 */
export function UploadView(props: UploadViewProps) {
  const { businessName, file, problem, description, focus, treesSoFar } = props;
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [touch] = useState(isTouchScreen);
  /**
   * One file input for both: "Take a photo" asks for the back camera (`capture`), "Choose a photo"
   * for the gallery (no `capture`, so the phone offers its photos and files).
   */
  const pick = (fromCamera: boolean) => {
    const field = input.current;
    if (!field) return;
    if (fromCamera) field.setAttribute('capture', 'environment');
    else field.removeAttribute('capture');
    field.click();
  };
  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    props.onChoose(Array.from(event.target.files ?? []));
    // The same file chosen again after Remove must fire change again.
    event.target.value = '';
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    props.onChoose(Array.from(event.dataTransfer.files));
  };

  return (
    <form
      className="flex flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        if (file) props.onAnalyze();
      }}
    >
      <div className="flex flex-col gap-1">
        <ViewHeading focus={focus}>{treesSoFar > 0 ? `Tree ${treesSoFar + 1}` : 'Get a guide price for your tree'}</ViewHeading>
        <p className="text-stone-700">
          {treesSoFar > 0 ? 'A photo of the next tree' : 'A photo of your tree'} and a few taps give a guide price from {businessName}.
        </p>
      </div>

      {treesSoFar > 0 && (
        <div className="flex flex-col gap-2 rounded-xl border border-stone-200 bg-stone-50 p-3 text-sm text-stone-800">
          <p className="flex items-start gap-2">
            <Trees aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-stone-600" />
            <span>
              {treesSoFar === 1 ? 'Your first tree is' : `Your ${treesSoFar} trees are`} on your list.
              {props.siteKept && ' The questions about the garden keep your answers from before: change any that are different for this tree.'}
            </span>
          </p>
          <button type="button" className={`${buttonStyles.secondary} self-start`} onClick={props.onBackToTrees}>
            Back to your trees
          </button>
        </div>
      )}

      <div
        className={`flex flex-col items-center gap-3 rounded-xl border-2 border-dashed px-4 py-6 text-center transition-colors ${
          dragging ? 'border-accent-visible bg-stone-100' : 'border-stone-300 bg-stone-50'
        }`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        {file ? (
          <div className="flex w-full min-w-0 flex-wrap items-center justify-end gap-3 text-left">
            <ImageIcon aria-hidden="true" className="size-8 shrink-0 text-stone-600" />
            <div className="min-w-0 flex-1 basis-32">
              <p className="truncate font-semibold text-stone-900">{file.name}</p>
              <p className={hintStyles}>{formatFileSize(file.size)}</p>
            </div>
            <button
              type="button"
              className={`${buttonStyles.secondary} shrink-0 px-3`}
              aria-label={`Remove ${file.name}`}
              onClick={props.onRemove}
            >
              <X aria-hidden="true" className="size-4" />
              Remove
            </button>
          </div>
        ) : (
          <>
            <ImageUp aria-hidden="true" className="size-10 text-stone-500" />
            {!touch && <p className="text-stone-700">Drop a photo here, or</p>}
          </>
        )}
        <div className={file ? 'flex flex-wrap justify-center gap-x-4' : 'flex w-full flex-wrap justify-center gap-2'}>
          {touch && (
            <button
              type="button"
              className={file ? 'min-h-11 text-sm font-semibold text-stone-800 underline underline-offset-4' : `${buttonStyles.primary} flex-1 basis-36`}
              aria-describedby="upload-hint"
              onClick={() => pick(true)}
            >
              {!file && <Camera aria-hidden="true" className="size-4" />}
              {file ? 'Take another photo' : 'Take a photo'}
            </button>
          )}
          <button
            type="button"
            className={file ? 'min-h-11 text-sm font-semibold text-stone-800 underline underline-offset-4' : `${buttonStyles.secondary} ${touch ? 'flex-1 basis-36' : ''}`}
            aria-describedby="upload-hint"
            onClick={() => pick(false)}
          >
            {file ? 'Choose a different photo' : 'Choose a photo'}
          </button>
        </div>
        <p id="upload-hint" className={hintStyles}>
          {PHOTO_HINT}
        </p>
        <input
          ref={input}
          type="file"
          accept={ACCEPTED_IMAGE_TYPES.join(',')}
          className="hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={chosen}
        />

      </div>

      {problem && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {problem}
        </p>
      )}

      <p className={`${hintStyles} flex gap-2`}>
        <ScanSearch aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          For the best estimate, take the photo from about the tree&apos;s own height away with the whole tree in frame,
          and a person or a door near the trunk for scale.
        </span>
      </p>

      {file && (
        <Suspense fallback={<p className={hintStyles}>Loading a few quick questions…</p>}>
          <QuestionsPanel file={file} {...props.answers} />
        </Suspense>
      )}

      <TextAreaField
        id="additional-context"
        label="Anything else we should know?"
        optional
        rows={3}
        maxLength={MAX_DESCRIPTION_CHARS}
        placeholder="For example, it leans towards the house, or it is behind the garage"
        value={description}
        onChange={(event) => props.onDescriptionChange(event.target.value)}
      />

      <button type="submit" className={`${buttonStyles.primary} w-full`} disabled={!file}>
        Get my price
      </button>
    </form>
  );
}
