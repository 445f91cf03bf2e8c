import { ACCEPTED_IMAGE_TYPES, MAX_UPLOAD_BYTES } from './upload-rules';

/**
 * The browser-side check of a chosen photo, shared by the dashboard and the widget so
 * both refuse the same files with the same words before uploading 10 MB for nothing.
 * The brief showed no rejection message; users expect one. The server checks again by the
 * file's bytes (server/analysis/upload.ts), so this is only a courtesy.
 */
export interface ChosenFile {
  name: string;
  type: string;
  size: number;
}

/** Some systems give no MIME type for a file; then its extension decides. */
const ACCEPTED_EXTENSIONS = /\.(jpe?g|png|webp)$/i;

/** The reason a file cannot be analysed, or null when it can. */
export function photoProblem(file: ChosenFile): string | null {
  const typeOk = file.type
    ? (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)
    : ACCEPTED_EXTENSIONS.test(file.name);
  if (!typeOk) return `"${file.name}" is not a supported image. Please choose a JPEG, PNG or WebP photo.`;
  if (file.size > MAX_UPLOAD_BYTES) {
    // Rounded up, so a file just over the limit never reads as "10.0 MB".
    const megabytes = (Math.ceil((file.size / (1024 * 1024)) * 10) / 10).toFixed(1);
    return `"${file.name}" is ${megabytes} MB. The maximum file size is 10MB.`;
  }
  if (file.size === 0) return `"${file.name}" is empty. Please choose another photo.`;
  return null;
}

export const ONE_PHOTO_ONLY = 'Please choose one photo at a time.';

/** "2.4 MB" or "350 KB", for showing the chosen file. */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
