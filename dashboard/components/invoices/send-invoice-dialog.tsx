import { Send } from 'lucide-react';
import type { RefObject } from 'react';
import { invoiceSendSchema, type Invoice } from '../../../core/invoices';
import { useSendInvoice } from '../../api/invoices';
import { ErrorAlert } from '../alert';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { focusFirstError, issuesToErrors } from './field-errors';
import { failedWith, FormDialog, useOpenedState } from './form-dialog';
import { heldMailWords, invoiceName } from './invoice-history';

/**
 * E-mails the issued invoice (its PDF and a link of its own) to the customer's address on the
 * accepted quote, or to one typed here; sending again makes a new link.
 */
export function SendInvoiceDialog({ invoice, open, onClose, returnFocusRef }: { invoice: Invoice; open: boolean; onClose: () => void; returnFocusRef?: RefObject<HTMLElement | null> }) {
  const send = useSendInvoice();
  // After a withdrawal the address is typed afresh: the one the links went to may be the wrong person's.
  const saved = invoice.linksWithdrawnAt ? '' : (invoice.sentTo ?? invoice.customer.email ?? '');
  const [email, setEmail, state, setState] = useOpenedState(open, () => saved);

  function submit(form: HTMLFormElement) {
    const typed = email.trim();
    const checked = invoiceSendSchema.safeParse(typed ? { email: typed } : {});
    if (!checked.success) {
      setState({ errors: issuesToErrors(checked.error.issues), failure: null });
      return focusFirstError(form);
    }
    send.mutate(
      { id: invoice.id, email: typed || undefined },
      {
        onSuccess: (sent) => {
          showToast({ title: 'Invoice sent', description: `${invoiceName(sent)} was e-mailed to ${sent.sentTo ?? typed}.` });
          onClose();
        },
        onError: (error) => failedWith(error, ['email'], form, setState),
      },
    );
  }

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={`Send ${invoiceName(invoice)}`}
      description="The customer gets the PDF and a link to read it and see how to pay."
      submitLabel="Send the invoice"
      icon={<Send aria-hidden="true" className="size-4" />}
      busy={send.isPending}
      onSubmit={submit}
      returnFocusRef={returnFocusRef}
    >
      {state.failure ? <ErrorAlert>{state.failure}</ErrorAlert> : null}
      <TextField
        label="Send to"
        type="email"
        autoComplete="off"
        value={email}
        error={state.errors.email}
        hint={
          invoice.linksWithdrawnAt
            ? `The links sent${invoice.sentTo ? ` to ${invoice.sentTo}` : ''} were withdrawn: type the address to send it to.${invoice.heldMail.length > 0 ? ` What waited (${heldMailWords(invoice.heldMail)}) goes there too.` : ''}`
            : invoice.customer.email
              ? `The customer's e-mail on the quote is ${invoice.customer.email}.`
              : 'The quote has no e-mail address: type the one to send it to.'
        }
        onChange={(event) => {
          setEmail(event.target.value);
          setState({ errors: {}, failure: null });
        }}
      />
      {invoice.sentAt && !invoice.linksWithdrawnAt ? <p className="text-sm text-stone-700">Sending again makes a new link; the one sent before still opens the invoice.</p> : null}
    </FormDialog>
  );
}
