import { FlaskConical } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { DEMO_TEST_CARDS } from '../../../core/billing';
import { isApiError } from '../../api/client';
import { signedInApi } from '../../api/signed-in';
import { TextField } from '../text-field';
import { CARD_NUMBER_DIGITS, cardDigits, editCardNumber, formatCardNumber } from './card-number';
import { PaymentActions, usePaymentFlow, type CardFormProps, type ConfirmOutcome } from './payment-flow';

const TEST_CARDS = [
  { number: formatCardNumber(DEMO_TEST_CARDS.success), outcome: 'succeeds' },
  { number: formatCardNumber(DEMO_TEST_CARDS.declined), outcome: 'declined' },
] as const;

/**
 * The demo provider's card form (docs/payments.md, Demo mode): clearly no real charge, one card number,
 * confirmed by POST /api/demo/confirm-payment. Expiry and CVC would be theatre here,
 * so the form does not ask for them.
 */
export function DemoCardForm({ clientSecret, submitLabel, submittingLabel, onPaid }: CardFormProps) {
  const noteId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [cardNumber, setCardNumber] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const flow = usePaymentFlow(onPaid);

  async function confirm(): Promise<ConfirmOutcome> {
    try {
      const { paymentIntentId } = await signedInApi.billing.confirmDemoPayment({ clientSecret, cardNumber: cardDigits(cardNumber) });
      return { paymentIntentId };
    } catch (error) {
      // Not a test card: say so beside the field as well as in the toast.
      if (isApiError(error, 'VALIDATION_ERROR')) setFieldError(error.details?.cardNumber?.[0] ?? error.message);
      throw error;
    }
  }

  return (
    <form
      noValidate
      aria-label="Card payment"
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (cardDigits(cardNumber).length !== CARD_NUMBER_DIGITS) {
          setFieldError(`Enter the ${CARD_NUMBER_DIGITS}-digit card number.`);
          inputRef.current?.focus();
          return;
        }
        setFieldError(undefined);
        void flow.submit(confirm);
      }}
    >
      <div id={noteId} className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
        <p className="flex items-center gap-2 font-semibold">
          <FlaskConical aria-hidden="true" className="size-4 shrink-0" />
          Demo mode, no real charge
        </p>
        <p className="mt-1">This server has no card processor set up. Use a test card:</p>
        <ul className="mt-1 flex flex-col gap-0.5">
          {TEST_CARDS.map((card) => (
            <li key={card.number}>
              <span className="font-mono whitespace-nowrap">{card.number}</span> ({card.outcome})
            </li>
          ))}
        </ul>
        <p className="mt-1">No expiry date or CVC is needed.</p>
      </div>

      <TextField
        ref={inputRef}
        label="Card number"
        name="cardNumber"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        maxLength={CARD_NUMBER_DIGITS + 3}
        spellCheck={false}
        aria-describedby={noteId}
        value={cardNumber}
        error={fieldError}
        // Locked while the payment runs, and visibly so (a read-only field looks editable by default).
        readOnly={flow.phase !== 'idle'}
        className="[&_input[readonly]]:cursor-not-allowed [&_input[readonly]]:bg-stone-100 [&_input[readonly]]:text-stone-700"
        onChange={(event) => {
          const input = event.currentTarget;
          const edit = editCardNumber(cardNumber, input.value, input.selectionStart ?? input.value.length);
          // Write the formatted value and caret now: React then finds the value unchanged
          // and leaves the caret where it is, rather than at the end.
          input.value = edit.value;
          input.setSelectionRange(edit.caret, edit.caret);
          setCardNumber(edit.value);
          if (fieldError) setFieldError(undefined);
        }}
      />

      <PaymentActions flow={flow} submitLabel={submitLabel} submittingLabel={submittingLabel} />
    </form>
  );
}
