import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { EXPORT_FORMATS, type ExportFormat } from '../../../core/invoice-export';
import { lastCalendarMonth } from '../../../core/invoice-summary';
import { ukToday } from '../../../core/job-booking';
import { invoiceExportPath } from '../../api/invoices';
import { TextField } from '../text-field';
import { tallButtonStyles, cardStyles } from '../ui';

const FORMAT_WORDS: Record<ExportFormat, string> = { xero: 'Xero', quickbooks: 'QuickBooks Online: invoices', 'quickbooks-credit-notes': 'QuickBooks Online: credit notes' };

/**
 * The accountant's export (docs/product.md, Getting paid): the invoices issued and credit notes
 * made in a period, as the file Xero's or QuickBooks Online's import takes (QuickBooks takes credit
 * notes in a file of their own); last calendar month unless changed. A plain link: the browser
 * downloads it with the session cookie.
 */
export function ExportForAccountant() {
  const headingId = useId();
  const formatId = useId();
  const [format, setFormat] = useState<ExportFormat>('xero');
  const [period, setPeriod] = useState(() => lastCalendarMonth(ukToday(new Date())));
  const complete = period.from !== '' && period.to !== '';
  const backwards = complete && period.from > period.to;

  return (
    <section aria-labelledby={headingId} className={`${cardStyles} mt-8 flex flex-col gap-4 p-4 sm:p-6`}>
      <div>
        <h2 id={headingId} className="text-xl font-bold text-green-900">
          Export for your accountant
        </h2>
        <p className="mt-1 max-w-prose text-sm text-stone-700">The invoices you issued and the credit notes you made in the period, as a CSV file to import.</p>
      </div>
      <fieldset>
        <legend id={formatId} className="mb-1 text-sm font-medium text-stone-800">
          Format
        </legend>
        <div className="flex flex-wrap gap-x-5">
          {EXPORT_FORMATS.map((choice) => (
            <label key={choice} className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
              <input type="radio" name={formatId} value={choice} checked={format === choice} onChange={() => setFormat(choice)} className="size-5 accent-green-800" />
              {FORMAT_WORDS[choice]}
            </label>
          ))}
        </div>
        {format !== 'xero' ? (
          <p className="mt-1 max-w-prose text-sm text-stone-700">
            QuickBooks imports invoices and credit notes separately: import the invoices file with Import data → Invoices, then the credit notes file with Import data → Credit notes.
          </p>
        ) : null}
      </fieldset>
      <div className="grid gap-3 sm:max-w-md sm:grid-cols-2">
        <TextField label="From" type="date" required value={period.from} onChange={(event) => setPeriod((value) => ({ ...value, from: event.target.value }))} />
        <TextField
          label="To"
          type="date"
          required
          value={period.to}
          error={backwards ? 'The period must end on or after the day it starts' : undefined}
          onChange={(event) => setPeriod((value) => ({ ...value, to: event.target.value }))}
        />
      </div>
      <div>
        {complete && !backwards ? (
          <a href={invoiceExportPath(format, period.from, period.to)} download className={tallButtonStyles.primary}>
            <Download aria-hidden="true" className="size-4" />
            Download CSV
          </a>
        ) : (
          <p className="text-sm text-stone-700">Choose the first and last day of the period to download it.</p>
        )}
      </div>
    </section>
  );
}
