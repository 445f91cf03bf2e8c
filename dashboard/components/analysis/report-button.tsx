import { useMutation } from '@tanstack/react-query';
import { Download, LoaderCircle } from 'lucide-react';
import { api, errorMessage, type DownloadedFile } from '../../api/client';
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

/**
 * Download Report (SPEC 2; DECISIONS, Analysis): the server's PDF quote. It is fetched
 * rather than linked so a failure is told in a toast instead of saved as a broken file.
 */
export function ReportButton({ analysisId }: { analysisId: number }) {
  const report = useMutation({
    mutationFn: async () => {
      const file = await api.analysis.report(analysisId);
      saveFile(file, `treeanalyzer-report-${analysisId}.pdf`);
      return file;
    },
    onSuccess: (file) => {
      showToast({
        title: 'Report Generated',
        description: file.filename ? `Your PDF quote was saved as ${file.filename}.` : 'Your PDF quote was downloaded.',
      });
    },
    onError: (error) => {
      showErrorToast({ title: 'Report Failed', description: errorMessage(error, 'Please try again.') });
    },
  });

  return (
    <button
      type="button"
      className={buttonStyles.primary}
      onClick={() => report.mutate()}
      disabled={report.isPending}
      aria-busy={report.isPending || undefined}
    >
      {report.isPending ? (
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
      ) : (
        <Download aria-hidden="true" className="size-4" />
      )}
      Download Report
    </button>
  );
}
