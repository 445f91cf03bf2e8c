import { CircleCheck, Send } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  CONTACT_METHOD_CHOICES,
  CONTACT_METHOD_QUESTION,
  CONTACT_TIME_CHOICES,
  CONTACT_TIME_QUESTION,
  type ContactMethod,
  type ContactTime,
} from '../../core/contact-preference';
import { LEAD_HONEYPOT_FIELD, LEAD_LIMITS, LEAD_THANKS } from '../../core/embed';
import { isRecord } from '../../core/is-record';
import { outsideAreaMessage, parsePostcode } from '../../core/postcode';
import { ApiError, type LeadRequest } from '../api';
import { ChoiceGroup, choicesOf } from '../components/choice-group';
import { Spinner } from '../components/spinner';
import { InputField, TextAreaField } from '../components/text-field';
import { errorsFromDetails, validateLead, type LeadErrors, type LeadField, type LeadFields } from '../lead-validation';
import { buttonStyles, cardStyles, errorTextStyles, hintStyles } from '../ui';

interface LeadFormProps {
  analysisId: number;
  /** The estimate's proof (the analysis answer's leadToken), sent back with the request. */
  leadToken: string;
  businessName: string;
  submit: (lead: LeadRequest) => Promise<unknown>;
  onSent: () => void;
}

const EMPTY: LeadFields = { name: '', email: '', phone: '', note: '', postcode: '', address: '' };
const FIELD_ORDER: readonly LeadField[] = ['name', 'email', 'phone', 'postcode', 'address', 'note'];

/**
 * "Request a quote" under the results (docs/product.md, Embed widget): a name and an e-mail or
 * a phone, the job's postcode (and address, optional), how and when they would like to hear back (one tap each, optional), an optional
 * note, sent only to this business. The estimate and its answers go with it by analysisId, so
 * nothing is typed twice. The honeypot field is for bots.
 */
export function LeadForm({ analysisId, leadToken, businessName, submit, onSent }: LeadFormProps) {
  const [fields, setFields] = useState<LeadFields>(EMPTY);
  const [contactMethod, setContactMethod] = useState<ContactMethod>();
  const [contactTime, setContactTime] = useState<ContactTime>();
  const [honeypot, setHoneypot] = useState('');
  const [errors, setErrors] = useState<LeadErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [status, setStatus] = useState<'editing' | 'sending' | 'sent'>('editing');
  /** The district the business may not cover, once a request from outside its list is sent. */
  const [outside, setOutside] = useState<string | null>(null);

  const update = (field: LeadField) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [field]: event.target.value }));

  const showErrors = (form: HTMLFormElement, found: LeadErrors) => {
    setErrors(found);
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) (form.elements.namedItem(first) as HTMLElement | null)?.focus();
  };

  const send = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setFormError(null);
    const found = validateLead(fields, { contactMethod });
    if (Object.keys(found).length > 0) {
      showErrors(form, found);
      return;
    }
    setErrors({});
    setStatus('sending');
    try {
      const postcode = parsePostcode(fields.postcode);
      const answer = await submit({
        analysisId,
        leadToken,
        name: fields.name.trim(),
        email: fields.email.trim() || undefined,
        phone: fields.phone.trim() || undefined,
        postcode: postcode?.postcode ?? fields.postcode.trim(),
        address: fields.address.trim() || undefined,
        note: fields.note.trim() || undefined,
        contactMethod,
        contactTime,
        [LEAD_HONEYPOT_FIELD]: honeypot || undefined,
      });
      setOutside(isRecord(answer) && answer.outsideArea === true && postcode ? postcode.district : null);
      setStatus('sent');
      onSent();
    } catch (error) {
      setStatus('editing');
      const server = error instanceof ApiError ? errorsFromDetails(error.details) : { fields: {} };
      if (Object.keys(server.fields).length > 0) showErrors(form, server.fields);
      // 404 (the estimate is gone or its day is over), 429 and anything else: the server's words.
      setFormError(server.form ?? (Object.keys(server.fields).length > 0 ? null : errorText(error)));
    }
  };

  if (status === 'sent') {
    return (
      <section className={cardStyles} aria-labelledby="lead-title">
        <h3 id="lead-title" className="text-base font-semibold text-stone-900">
          Request a quote
        </h3>
        <LeadThanks outside={outside === null ? null : outsideAreaMessage(businessName, outside)} />
      </section>
    );
  }

  return (
    <section className={cardStyles} aria-labelledby="lead-title">
      <h3 id="lead-title" className="text-base font-semibold text-stone-900">
        Request a quote
      </h3>
      <p className="mt-1 text-stone-700">Send this estimate to {businessName} and they will get back to you.</p>
      <form className="mt-4 flex flex-col gap-4" noValidate onSubmit={send}>
        <InputField
          id="name"
          name="name"
          label="Name"
          autoComplete="name"
          required
          maxLength={LEAD_LIMITS.name}
          value={fields.name}
          onChange={update('name')}
          error={errors.name}
        />
        <p id="contact-hint" className={hintStyles}>
          Give an e-mail address or a phone number (at least one) so {businessName} can reach you.
        </p>
        <InputField
          id="email"
          name="email"
          type="email"
          label="E-mail"
          autoComplete="email"
          maxLength={LEAD_LIMITS.email}
          describedBy="contact-hint"
          value={fields.email}
          onChange={update('email')}
          error={errors.email}
        />
        <InputField
          id="phone"
          name="phone"
          type="tel"
          label="Phone"
          autoComplete="tel"
          maxLength={LEAD_LIMITS.phone}
          describedBy="contact-hint"
          value={fields.phone}
          onChange={update('phone')}
          error={errors.phone}
        />
        <InputField
          id="postcode"
          name="postcode"
          label="Postcode"
          autoComplete="postal-code"
          inputMode="text"
          autoCapitalize="characters"
          spellCheck={false}
          required
          maxLength={LEAD_LIMITS.postcode}
          describedBy="postcode-hint"
          value={fields.postcode}
          onChange={update('postcode')}
          error={errors.postcode}
        />
        <p id="postcode-hint" className={`${hintStyles} -mt-2`}>
          Where the tree is, e.g. LS6 2AB.
        </p>
        <InputField
          id="address"
          name="address"
          label="Address"
          optional
          autoComplete="street-address"
          maxLength={LEAD_LIMITS.address}
          value={fields.address}
          onChange={update('address')}
          error={errors.address}
        />
        <ChoiceGroup
          look="pills"
          optional
          legend={CONTACT_METHOD_QUESTION}
          choices={choicesOf(CONTACT_METHOD_CHOICES)}
          value={contactMethod ?? ''}
          onChange={(method: string) => setContactMethod(method as ContactMethod)}
        />
        <ChoiceGroup
          look="pills"
          optional
          legend={CONTACT_TIME_QUESTION}
          choices={choicesOf(CONTACT_TIME_CHOICES)}
          value={contactTime ?? ''}
          onChange={(time: string) => setContactTime(time as ContactTime)}
        />
        <TextAreaField
          id="note"
          name="note"
          label="Note"
          optional
          rows={3}
          maxLength={LEAD_LIMITS.note}
          value={fields.note}
          onChange={update('note')}
          error={errors.note}
        />
        {/* Off-screen and out of the tab order and accessibility tree: only bots fill it in. */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor={LEAD_HONEYPOT_FIELD}>Website</label>
          <input
            id={LEAD_HONEYPOT_FIELD}
            name={LEAD_HONEYPOT_FIELD}
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={honeypot}
            onChange={(event) => setHoneypot(event.target.value)}
          />
        </div>
        {formError && (
          <p role="alert" className={errorTextStyles}>
            {formError}
          </p>
        )}
        <p className={hintStyles}>Your details go only to {businessName}.</p>
        <button type="submit" className={`${buttonStyles.primary} w-full`} disabled={status === 'sending'}>
          {status === 'sending' ? <Spinner className="size-4" /> : <Send aria-hidden="true" className="size-4" />}
          {status === 'sending' ? 'Sending…' : 'Request a quote'}
        </button>
      </form>
    </section>
  );
}

/**
 * The form's button is gone once sent: focus moves to the thanks, so keyboard users keep their
 * place. A request from outside the business's districts was sent too, and says so.
 */
function LeadThanks({ outside }: { outside: string | null }) {
  const thanks = useRef<HTMLParagraphElement>(null);
  useEffect(() => thanks.current?.focus(), []);
  return (
    <p ref={thanks} tabIndex={-1} role="status" className="mt-3 flex items-start gap-2 font-medium text-stone-900">
      <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent-visible" />
      {outside ?? LEAD_THANKS}
    </p>
  );
}

function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Your request could not be sent. Please try again.';
}
