import { Clock, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { VISITOR_LIMIT_KEPT, VISITOR_LIMIT_OVER, VISITOR_LIMIT_STILL_HERE, visitorLimitMessage } from '../../core/embed';
import { ViewHeading } from '../components/view-heading';
import { buttonStyles } from '../ui';

interface VisitorLimitViewProps {
  /** The server's words, shown as they are when it gave no wait. */
  message: string;
  waitSeconds: number | null;
  /** Back to the upload with the photo and answers kept. */
  onRetry: () => void;
  focus: boolean;
}

/**
 * The visitor's own limit: how long to wait, counted down, and no way to
 * send again until it is over (it would only be refused). Without a wait from the server the
 * retry is offered at once, and the server checks again.
 */
export function VisitorLimitView({ message, waitSeconds, onRetry, focus }: VisitorLimitViewProps) {
  const [deadline] = useState(() => (waitSeconds === null ? null : Date.now() + waitSeconds * 1000));
  const [secondsLeft, setSecondsLeft] = useState(waitSeconds ?? 0);
  const waiting = deadline !== null && secondsLeft > 0;
  const over = deadline !== null && !waiting;

  useEffect(() => {
    if (deadline === null || !waiting) return;
    const timer = setInterval(() => setSecondsLeft(Math.max(0, Math.ceil((deadline - Date.now()) / 1000))), 1000);
    return () => clearInterval(timer);
  }, [deadline, waiting]);

  return (
    <div className="flex flex-col items-center gap-3 py-6 text-center">
      <Clock aria-hidden="true" className="size-10 text-amber-700" />
      <ViewHeading focus={focus}>{over ? VISITOR_LIMIT_OVER : waiting ? visitorLimitMessage(secondsLeft) : message}</ViewHeading>
      {/* A live region, so the end of the wait is read out as the button appears. */}
      <p role="status" className="max-w-prose text-stone-700">
        {over ? VISITOR_LIMIT_STILL_HERE : VISITOR_LIMIT_KEPT}
      </p>
      {!waiting && (
        <button type="button" className={`${buttonStyles.primary} mt-2`} onClick={onRetry}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Try Again
        </button>
      )}
    </div>
  );
}
