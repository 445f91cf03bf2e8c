import { LoaderCircle } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useLocation } from 'wouter';
import { errorMessage } from '../../api/client';
import { useCreateJob } from '../../api/jobs';
import { ErrorAlert } from '../alert';
import { Dialog } from '../dialog';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { buttonStyles } from '../ui';

const NAME_REQUIRED = 'Customer name is required';

interface MakeJobDialogProps {
  open: boolean;
  onClose: () => void;
  /** The analyses ticked in History, each a tree of the job; none for an empty job. */
  analysisIds?: readonly number[];
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/**
 * docs/product.md, Jobs and quotes: a new job asks only for the customer's name (the rest is filled
 * in on the job's page), is made with the trees ticked, if any, and opens at once.
 */
export function MakeJobDialog({ open, onClose, analysisIds = [], returnFocusRef }: MakeJobDialogProps) {
  const create = useCreateJob();
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const nameField = useRef<HTMLInputElement>(null);
  const formId = useId();

  // The dialog opens itself in its own effect, which runs before this one: the field can take focus now.
  useEffect(() => {
    if (open) nameField.current?.focus();
  }, [open]);

  function close() {
    if (create.isPending) return;
    setName('');
    setError(undefined);
    setFailure(undefined);
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const customer = name.trim();
    if (!customer) {
      setError(NAME_REQUIRED);
      nameField.current?.focus();
      return;
    }
    setError(undefined);
    setFailure(undefined);
    create.mutate(
      { analysisIds: [...analysisIds], customer: { name: customer } },
      {
        onSuccess: (job) => {
          showToast({ title: 'Job made', description: `${job.reference} for ${job.customer.name}` });
          setName('');
          onClose();
          navigate(`/jobs/${job.id}`);
        },
        onError: (err) => setFailure(errorMessage(err, 'The job could not be made. Please try again.')),
      },
    );
  }

  const trees = analysisIds.length;
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Make a job"
      description={
        trees > 0
          ? `A quote for ${trees === 1 ? 'the tree' : `the ${trees} trees`} you ticked, each priced from its estimate. You can add typed lines and change prices next.`
          : 'An empty quote for work a photo cannot price (a hedge, stumps): add its lines next. To quote trees, tick their analyses in History.'
      }
      returnFocusRef={returnFocusRef}
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={close} disabled={create.isPending}>
            Cancel
          </button>
          <button type="submit" form={formId} className={buttonStyles.primary} disabled={create.isPending} aria-busy={create.isPending || undefined}>
            {create.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
            Make the job
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="flex flex-col gap-4">
        {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
        <TextField
          ref={nameField}
          label="Customer name"
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={error}
          required
        />
      </form>
    </Dialog>
  );
}
