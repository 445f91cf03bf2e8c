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
import type { LeadDraft } from '../lead-draft';
import { ChoiceGroup, choicesOf } from '../components/choice-group';
import { Spinner } from '../components/spinner';
import { InputField, TextAreaField } from '../components/text-field';
import { errorsFromDetails, validateLead, type LeadErrors, type LeadField, type LeadFields } from '../lead-validation';
import { buttonStyles, cardStyles, errorTextStyles, hintStyles } from '../ui';

interface LeadFormProps {
  /** How many trees the request carries (every tree priced in this visit). */
  treeCount: number;
  businessName: string;
  /** The request as typed so far, kept by the estimator while the visitor prices another tree. */
  draft: LeadDraft;
  onDraft: (update: (draft: LeadDraft) => LeadDraft) => void;
  /** Every tree listed has been sent: the thanks show instead of the form. */
  sent: boolean;
  submit: (lead: Omit<LeadRequest, 'trees'>) => Promise<unknown>;
  /** The note under a full postcode: a conservation area or Tree Preservation Order found there, else null. */
  siteNote?: (postcode: string, signal?: AbortSignal) => Promise<string | null>;
  onSent: () => void;
}

const FIELD_ORDER: readonly LeadField[] = ['name', 'email', 'phone', 'postcode', 'address', 'note'];

/**
 * "Request a quote" under the results (docs/product.md, Embed widget): a name and an e-mail or
 * a phone, the job's postcode (and address, optional), how and when they would like to hear back (one tap each, optional), an optional
 * note, sent only to this business. Every tree of the visit goes with it (the estimator adds
 * them, each with its token), so nothing is typed twice; pricing another tree after sending
 * and sending again updates the same request. The honeypot field is for bots.
 */
export function LeadForm({ treeCount, businessName, draft, onDraft, sent, submit, siteNote, onSent }: LeadFormProps) {
  const { fields, contactMethod, contactTime, honeypot } = draft;
  const setDraft = (patch: Partial<LeadDraft>) => onDraft((current) => ({ ...current, ...patch }));
  const setFields = (update: (current: LeadFields) => LeadFields) => onDraft((current) => ({ ...current, fields: update(current.fields) }));
  const setContactMethod = (method: ContactMethod) => setDraft({ contactMethod: method });
  const setContactTime = (time: ContactTime) => setDraft({ contactTime: time });
  const setHoneypot = (text: string) => setDraft({ honeypot: text });
  const [errors, setErrors] = useState<LeadErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const trees = treeCount === 1 ? 'this estimate' : `your ${treeCount} trees`;
  const note = useSiteNote(fields.postcode, siteNote);

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
    setSending(true);
    try {
      const postcode = parsePostcode(fields.postcode);
      const answer = await submit({
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
      setDraft({
        outside: isRecord(answer) && answer.outsideArea === true && postcode ? postcode.district : null,
        reference: isRecord(answer) && typeof answer.reference === 'string' ? answer.reference : null,
      });
      setSending(false);
      onSent();
    } catch (error) {
      setSending(false);
      const server = error instanceof ApiError ? errorsFromDetails(error.details) : { fields: {} };
      if (Object.keys(server.fields).length > 0) showErrors(form, server.fields);
      // 404 (the estimate is gone or its day is over), 429 and anything else: the server's words.
      setFormError(server.form ?? (Object.keys(server.fields).length > 0 ? null : errorText(error)));
    }
  };

  if (sent) {
    return (
      <section className={cardStyles} aria-labelledby="lead-title">
        <h3 id="lead-title" className="text-base font-semibold text-stone-900">
          Request a quote
        </h3>
        <LeadThanks
          outside={draft.outside === null ? null : outsideAreaMessage(businessName, draft.outside)}
          reference={draft.reference ?? null}
          emailed={fields.email.trim() !== ''}
        />
      </section>
    );
  }

  return (
    <section className={cardStyles} aria-labelledby="lead-title">
      <h3 id="lead-title" className="text-base font-semibold text-stone-900">
        Request a quote
      </h3>
      <p className="mt-1 text-stone-700">
        Send {trees} to {businessName} and they will get back to you.
      </p>
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
        <p role="status" className={note ? 'rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-stone-900' : 'sr-only'}>
          {note ?? ''}
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
        <button type="submit" className={`${buttonStyles.primary} w-full`} disabled={sending}>
          {sending ? <Spinner className="size-4" /> : <Send aria-hidden="true" className="size-4" />}
          {sending ? 'Sending…' : treeCount === 1 ? 'Request a quote' : `Request a quote for ${treeCount} trees`}
        </button>
      </form>
    </section>
  );
}

/**
 * The form's button is gone once sent: focus moves to the thanks, so keyboard users keep their
 * place. A request from outside the business's districts was sent too, and says so.
 */
function LeadThanks({ outside, reference, emailed }: { outside: string | null; reference: string | null; emailed: boolean }) {
  const thanks = useRef<HTMLDivElement>(null);
  useEffect(() => thanks.current?.focus(), []);
  return (
    <div ref={thanks} tabIndex={-1} role="status" className="mt-3 flex items-start gap-2 text-stone-900">
      <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent-visible" />
      <div className="flex flex-col gap-1">
        <p className="font-medium">{outside ?? LEAD_THANKS}</p>
        {/* The same reference as the acknowledgement e-mail and the business's own (core/embed.ts requestReference). */}
        {reference && (
          <p>
            Your reference: <strong data-testid="lead-reference">{reference}</strong>
          </p>
        )}
        {emailed && <p className="text-sm text-stone-700">We have e-mailed you a copy. To add anything, reply to it.</p>}
      </div>
    </div>
  );
}

function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Your request could not be sent. Please try again.';
}

/** How long typing must pause before a full postcode is looked up (a courtesy, not a check). */
const NOTE_PAUSE_MS = 600;

/**
 * The note under the postcode: asked once a full UK postcode has been typed and typing paused,
 * cleared as soon as the postcode changes; a failed or slow lookup shows nothing.
 */
function useSiteNote(typed: string, ask: LeadFormProps['siteNote']): string | null {
  const postcode = parsePostcode(typed)?.postcode ?? null;
  const [found, setFound] = useState<{ postcode: string; note: string | null } | null>(null);
  useEffect(() => {
    if (!postcode || !ask) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void ask(postcode, controller.signal).then((note) => {
        if (!controller.signal.aborted) setFound({ postcode, note });
      });
    }, NOTE_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [postcode, ask]);
  return found && found.postcode === postcode ? found.note : null;
}
