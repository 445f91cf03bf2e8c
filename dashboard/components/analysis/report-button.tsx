import { useMutation, useQuery } from '@tanstack/react-query';
import { Download, FileLock2, LoaderCircle } from 'lucide-react';
import { useId, useState } from 'react';
import type { Analysis } from '../../../core/analysis';
import { QUOTE_CUSTOMER_NAME_MAX, QUOTE_SITE_ADDRESS_MAX, type ReportCopy } from '../../../core/quote';
import { errorMessage, type DownloadedFile } from '../../api/client';
import { queryKeys } from '../../api/query-client';
import { signedInApi } from '../../api/signed-in';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
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
 * Download Report (docs/product.md, Analysis): the server's PDF quote for the customer, and
 * beside it the contractor's internal copy, which adds a page of notes (assumptions,
 * calibration, provider, where each value came from). Fetched rather than linked so a failure
 * is told in a toast instead of saved as a broken file.
 *
 * Above the buttons, two optional fields print "Prepared for" on the quote: always in view, so
 * a download stays one click and the fields are seen before it. A website lead's analysis
 * starts with the name the visitor gave (GET /api/analysis/{id}/quote-recipient); what the user
 * types wins, and clearing it prints no name.
 */
export function ReportButton({ analysis }: { analysis: Pick<Analysis, 'id' | 'source'> }) {
  const analysisId = analysis.id;
  const hintId = useId();
  const prefill = useQuery({
    queryKey: queryKeys.quoteRecipient(analysisId),
    queryFn: () => signedInApi.analysis.quoteRecipient(analysisId),
    // Only a website visitor's analysis can have a lead behind it.
    enabled: analysis.source === 'embed',
  });
  // null until the user types: until then the field shows the lead's name, once it has loaded.
  const [typedName, setTypedName] = useState<string | null>(null);
  const [siteAddress, setSiteAddress] = useState('');
  const customerName = typedName ?? prefill.data?.customerName ?? '';

  const report = useMutation({
    mutationFn: async (copy: ReportCopy) => {
      const file = await signedInApi.analysis.report(analysisId, copy, { customerName: customerName.trim(), siteAddress: siteAddress.trim() });
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
      {/* basis-full: a row of its own when the actions sit side by side. */}
      <fieldset className="flex w-full basis-full flex-col gap-3 rounded-xl border border-stone-200 bg-stone-50 p-3 sm:p-4" aria-describedby={hintId}>
        <legend className="px-1 text-sm font-semibold text-stone-900">Quote prepared for (optional)</legend>
        <p id={hintId} className="-mt-1 text-xs text-stone-600">
          Printed at the top of the quote; leave empty for a quote without them.
        </p>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label="Customer name"
            value={customerName}
            onChange={(event) => setTypedName(event.target.value)}
            maxLength={QUOTE_CUSTOMER_NAME_MAX}
            autoComplete="off"
            hint={prefill.data?.customerName && typedName === null ? 'From the website enquiry.' : undefined}
          />
          <TextArea
            label="Site address"
            value={siteAddress}
            onChange={(event) => setSiteAddress(event.target.value)}
            maxLength={QUOTE_SITE_ADDRESS_MAX}
            rows={3}
            autoComplete="off"
          />
        </div>
      </fieldset>
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
