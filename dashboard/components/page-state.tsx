import { Link } from 'wouter';
import { errorMessage, isApiError } from '../api/client';
import { ErrorAlert } from './alert';
import { PageTitle } from './page-title';
import { Spinner } from './spinner';
import { buttonStyles, linkStyles } from './ui';

type PageStateProps =
  /** The page's data is on its way: a spinner that screen readers hear as `label` (role="status"). */
  | { kind: 'loading'; label: string; /** Padding and frame around the spinner. */ className?: string }
  /** The data could not be read: the error's own message, else `fallback`, and a Try Again button. */
  | { kind: 'failed'; error: unknown; fallback: string; onRetry: () => unknown }
  /**
   * The thing the address names is not there (or the address is no id at all): a heading, why,
   * and a link to the list it belongs to. A NOT_FOUND answer (or none) says `fallback`; any other
   * failure says its own message.
   */
  | { kind: 'not-found'; title: string; error?: unknown; fallback: string; back: { href: string; label: string } };

/**
 * What a page (or a section of one) shows instead of its data while it loads, when it could not
 * be loaded, or when what it names does not exist, so every page says these the same way.
 */
export function PageState(props: PageStateProps) {
  if (props.kind === 'loading') {
    return (
      <div className={`flex justify-center ${props.className ?? 'py-16'}`}>
        <Spinner label={props.label} />
      </div>
    );
  }
  if (props.kind === 'failed') {
    return (
      <div className="flex flex-col items-start gap-3">
        <ErrorAlert>{errorMessage(props.error, props.fallback)}</ErrorAlert>
        <button type="button" className={buttonStyles.secondary} onClick={() => void props.onRetry()}>
          Try Again
        </button>
      </div>
    );
  }
  const known = props.error === undefined || isApiError(props.error, 'NOT_FOUND');
  return (
    <div className="flex flex-col items-start gap-3">
      <PageTitle title={props.title} />
      <ErrorAlert>{known ? props.fallback : errorMessage(props.error, props.fallback)}</ErrorAlert>
      <Link href={props.back.href} className={linkStyles}>
        {props.back.label}
      </Link>
    </div>
  );
}
