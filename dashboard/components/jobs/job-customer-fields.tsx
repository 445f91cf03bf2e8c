import { LEAD_LIMITS } from '../../../core/embed';
import { QUOTE_SITE_ADDRESS_MAX } from '../../../core/quote';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
import type { CustomerDraft } from './job-draft';

export type CustomerErrors = Partial<Record<keyof CustomerDraft, string>>;

/** Who the quote is for and where the work is; Save sends them with the items. */
export function JobCustomerFields({ value, errors, onChange }: { value: CustomerDraft; errors: CustomerErrors; onChange: (change: Partial<CustomerDraft>) => void }) {
  return (
    <section aria-labelledby="job-customer-title" className="flex flex-col gap-3">
      <h2 id="job-customer-title" className="text-lg font-semibold text-stone-900">
        Customer
      </h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Name"
          autoComplete="off"
          maxLength={LEAD_LIMITS.name}
          value={value.name}
          onChange={(event) => onChange({ name: event.target.value })}
          error={errors.name}
          required
        />
        <TextField
          label="E-mail"
          type="email"
          autoComplete="off"
          maxLength={LEAD_LIMITS.email}
          value={value.email}
          onChange={(event) => onChange({ email: event.target.value })}
          error={errors.email}
        />
        <TextField
          label="Phone"
          type="tel"
          autoComplete="off"
          maxLength={LEAD_LIMITS.phone}
          value={value.phone}
          onChange={(event) => onChange({ phone: event.target.value })}
          error={errors.phone}
        />
        <TextArea
          label="Site address"
          rows={2}
          maxLength={QUOTE_SITE_ADDRESS_MAX}
          value={value.siteAddress}
          onChange={(event) => onChange({ siteAddress: event.target.value })}
          error={errors.siteAddress}
        />
      </div>
    </section>
  );
}
