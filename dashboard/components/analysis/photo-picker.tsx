import { ImageUp, RefreshCw, Trash2 } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';
import { flushSync } from 'react-dom';
import { ACCEPTED_IMAGE_TYPES, UPLOAD_HINT } from '../../../core/analysis';
import { formatFileSize, ONE_PHOTO_ONLY, photoProblem } from '../../../core/photo-check';
import { shrinkPhoto } from '../../../core/photo-shrink';
import { ErrorAlert } from '../alert';
import { buttonStyles } from '../ui';
import { FileImage } from './file-image';

interface PhotoPickerProps {
  file: File | null;
  onChange: (file: File | null) => void;
}

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes('Files');
}

/**
 * The drop zone of the upload stage: drag and drop or browse, one photo, a
 * highlight on drag-over, a preview with Replace and Remove once chosen. The file input
 * stays hidden; the visible buttons open it, so every path works from the keyboard.
 * A chosen photo is made smaller on the device first (core/photo-shrink.ts): the preview, the
 * measuring and the upload all use that copy, so what is shown is what is sent.
 */
export function PhotoPicker({ file, onChange }: PhotoPickerProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const browseRef = useRef<HTMLButtonElement>(null);
  const [dragging, setDragging] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [preparing, setPreparing] = useState(false);
  /** The latest choice: a photo still being made smaller when another is chosen or it is removed is dropped. */
  const choice = useRef(0);

  async function choose(files: FileList | null) {
    if (!files || files.length === 0) return;
    const picked = files[0];
    const reason = files.length > 1 || !picked ? ONE_PHOTO_ONLY : photoProblem(picked);
    setProblem(reason);
    if (reason || !picked) return;
    const mine = ++choice.current;
    setPreparing(true);
    const photo = await shrinkPhoto(picked);
    if (mine !== choice.current) return;
    setPreparing(false);
    onChange(photo);
  }

  function remove() {
    choice.current += 1;
    setPreparing(false);
    setProblem(null);
    // The Remove button goes away with the photo: put focus where the next step is.
    flushSync(() => onChange(null));
    browseRef.current?.focus();
  }

  const openPicker = () => inputRef.current?.click();

  return (
    <div className="flex flex-col gap-3">
      <div
        data-testid="photo-drop-zone"
        data-dragging={dragging || undefined}
        onDragEnter={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setDragging(true);
        }}
        onDragLeave={(event) => {
          // Leaving for one of the zone's own children is not leaving the zone.
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          void choose(event.dataTransfer.files);
        }}
        className={`rounded-2xl border-2 border-dashed transition-colors ${
          dragging ? 'border-green-700 bg-green-50 ring-4 ring-green-200' : 'border-stone-300 bg-white'
        }`}
      >
        <input
          ref={inputRef}
          type="file"
          accept={ACCEPTED_IMAGE_TYPES.join(',')}
          aria-label="Tree photo"
          data-testid="photo-input"
          hidden
          onChange={(event) => {
            void choose(event.currentTarget.files);
            // Cleared so choosing the same file again after Remove still fires a change.
            event.currentTarget.value = '';
          }}
        />
        {file ? (
          <div className="flex flex-col gap-4 p-4 sm:flex-row sm:items-center">
            <FileImage
              file={file}
              alt="Preview of the chosen tree photo"
              className="max-h-72 w-full rounded-xl bg-stone-100 object-contain sm:w-72"
            />
            <div className="flex min-w-0 flex-col gap-3">
              <div className="min-w-0">
                <p className="truncate font-medium text-stone-900" title={file.name}>
                  {file.name}
                </p>
                <p className="text-sm text-stone-600">{formatFileSize(file.size)}</p>
              </div>
              <div className="flex flex-wrap gap-2">
                <button type="button" className={buttonStyles.secondary} onClick={openPicker}>
                  <RefreshCw aria-hidden="true" className="size-4" />
                  Replace photo
                </button>
                <button type="button" className={buttonStyles.quiet} onClick={remove}>
                  <Trash2 aria-hidden="true" className="size-4" />
                  Remove photo
                </button>
              </div>
              <p className="text-xs text-stone-600">Or drop another photo here to replace it.</p>
            </div>
          </div>
        ) : (
          <div className="flex flex-col items-center gap-3 px-4 py-10 text-center">
            <span className="flex size-14 items-center justify-center rounded-full bg-green-100 text-green-800">
              <ImageUp aria-hidden="true" className="size-7" />
            </span>
            <p className="text-base font-semibold text-stone-900">
              {dragging ? 'Drop the photo to use it' : 'Drag and drop a photo of the tree here'}
            </p>
            <p className="text-sm text-stone-600">or</p>
            <button ref={browseRef} type="button" className={buttonStyles.primary} onClick={openPicker}>
              Browse files
            </button>
            <p className="text-xs text-stone-600">{UPLOAD_HINT}</p>
          </div>
        )}
      </div>
      <p role="status" className={preparing ? 'text-sm text-stone-700' : 'sr-only'}>
        {preparing ? 'Preparing photo…' : ''}
      </p>
      {problem ? <ErrorAlert>{problem}</ErrorAlert> : null}
    </div>
  );
}
