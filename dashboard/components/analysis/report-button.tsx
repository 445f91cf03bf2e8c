import { useMutation } from '@tanstack/react-query';
import { Download, FileLock2, LoaderCircle } from 'lucide-react';
import type { ReportCopy } from '../../../core/quote';
import { errorMessage, type DownloadedFile } from '../../api/client';
import { signedInApi } from '../../api/signed-in';
import { showErrorToast, showToast } from '../toast';
import { buttonStyles } from '../ui';

/** Hands a fetched file to the browser's own download, as a link with `download` would. */
function saveFile({ blob, filename }: DownloadedFile, fallbackName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename ?? fallbackName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has its own copy once the click is handled; free ours a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const SAVED: Record<ReportCopy, (name: string | undefined) => string> = {
  customer: (name) => (name ? `The quote for your customer was saved as ${name}.` : 'The quote for your customer was downloaded.'),
  internal: (name) =>
    name
      ? `Your internal copy, with the estimate's notes (not for the customer), was saved as ${name}.`
      : 'Your internal copy, with the estimate\'s notes (not for the customer), was downloaded.',
};

/**
 * Download Report (SPEC 2; DECISIONS, Analysis): the server's PDF quote for the customer, and
 * beside it the contractor's internal copy, which adds a page of notes (assumptions,
 * calibration, provider, where each value came from). Fetched rather than linked so a failure
 * is told in a toast instead of saved as a broken file.
 */
export function ReportButton({ analysisId }: { analysisId: number }) {
  const report = useMutation({
    mutationFn: async (copy: ReportCopy) => {
      const file = await signedInApi.analysis.report(analysisId, copy);
      saveFile(file, copy === 'internal' ? `quote-${analysisId}-internal.pdf` : `quote-${analysisId}.pdf`);
      return file;
    },
    onSuccess: (file, copy) => {
      showToast({ title: 'Report Generated', description: SAVED[copy](file.filename) });
    },
    onError: (error) => {
      showErrorToast({ title: 'Report Failed', description: errorMessage(error, 'Please try again.') });
    },
  });
  const pending = (copy: ReportCopy) => report.isPending && report.variables === copy;
  const icon = (copy: ReportCopy, Icon: typeof Download) =>
    pending(copy) ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Icon aria-hidden="true" className="size-4" />;

  return (
    <>
      <button
        type="button"
        className={buttonStyles.primary}
        onClick={() => report.mutate('customer')}
        disabled={report.isPending}
        aria-busy={pending('customer') || undefined}
      >
        {icon('customer', Download)}
        Download Report
      </button>
      <button
        type="button"
        className={buttonStyles.secondary}
        onClick={() => report.mutate('internal')}
        disabled={report.isPending}
        aria-busy={pending('internal') || undefined}
        title="The quote plus a page of notes for you: assumptions, calibration and where each value came from. Not for the customer."
      >
        {icon('internal', FileLock2)}
        Internal Copy (with notes)
      </button>
    </>
  );
}
