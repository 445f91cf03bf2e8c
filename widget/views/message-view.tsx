import { RefreshCw, TriangleAlert } from 'lucide-react';
import { ViewHeading } from '../components/view-heading';
import { buttonStyles } from '../ui';

interface MessageViewProps {
  title: string;
  message?: string;
  /** Shown as a "Try Again" button when trying again can help. */
  onRetry?: () => void;
  focus: boolean;
}

/**
 * "Service Unavailable", the busy notice and a failed analysis: a title, the reason in
 * words, and a way back where there is one.
 */
export function MessageView({ title, message, onRetry, focus }: MessageViewProps) {
  return (
    <div className="flex flex-col items-center gap-3 py-6 text-center">
      <TriangleAlert aria-hidden="true" className="size-10 text-amber-700" />
      <ViewHeading focus={focus}>{title}</ViewHeading>
      {message && <p className="max-w-prose text-stone-700">{message}</p>}
      {onRetry && (
        <button type="button" className={`${buttonStyles.primary} mt-2`} onClick={onRetry}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Try Again
        </button>
      )}
    </div>
  );
}
