import { ImageUp, ImageIcon, ScanSearch, X } from 'lucide-react';
import { lazy, Suspense, useRef, useState, type DragEvent } from 'react';
import { formatFileSize } from '../../core/photo-check';
import { ACCEPTED_IMAGE_TYPES, MAX_DESCRIPTION_CHARS, UPLOAD_HINT } from '../../core/upload-rules';
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
}

/**
 * docs/product.md, Embed widget: a photo, optional "Additional Context", and "Analyze Tree"; once the
 * photo is chosen, the questions a homeowner answers with a tap each, so a photo and
 * taps give a price with nothing typed.
 */
export function UploadView(props: UploadViewProps) {
  const { businessName, file, problem, description, focus } = props;
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

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
        <ViewHeading focus={focus}>Get a tree work estimate</ViewHeading>
        <p className="text-stone-700">
          Upload a photo of your tree for an instant time and cost estimate from {businessName}.
        </p>
      </div>

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
            <p className="text-stone-700">Drag a photo here, or</p>
          </>
        )}
        <button
          type="button"
          className={file ? 'text-sm font-semibold text-stone-800 underline underline-offset-4' : buttonStyles.secondary}
          aria-describedby="upload-hint"
          onClick={() => input.current?.click()}
        >
          {file ? 'Choose a different photo' : 'Choose a photo'}
        </button>
        <p id="upload-hint" className={hintStyles}>
          {UPLOAD_HINT}
        </p>
        <input
          ref={input}
          type="file"
          accept={ACCEPTED_IMAGE_TYPES.join(',')}
          className="hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            props.onChoose(Array.from(event.target.files ?? []));
            // The same file chosen again after Remove must fire change again.
            event.target.value = '';
          }}
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
        label="Additional Context"
        optional
        rows={3}
        maxLength={MAX_DESCRIPTION_CHARS}
        placeholder="Anything else we should know, e.g. the tree leans towards the house"
        value={description}
        onChange={(event) => props.onDescriptionChange(event.target.value)}
      />

      <button type="submit" className={`${buttonStyles.primary} w-full`} disabled={!file}>
        Analyze Tree
      </button>
    </form>
  );
}
