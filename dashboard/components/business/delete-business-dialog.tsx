import { LoaderCircle } from 'lucide-react';
import type { RefObject } from 'react';
import type { Business } from '../../../core/business';
import { useDeleteBusiness } from '../../api/businesses';
import { errorMessage } from '../../api/client';
import { Dialog } from '../dialog';
import { showErrorToast, showToast } from '../toast';
import { buttonStyles } from '../ui';

interface DeleteBusinessDialogProps {
  /** The business to confirm, or null when closed. */
  business: Business | null;
  onClose: () => void;
  /** The card (and its Delete button) is gone after a delete: focus lands here instead. */
  returnFocusRef: RefObject<HTMLElement | null>;
}

/**
 * docs/product.md, Messages: deleting asks first, naming the business. It lives on the page rather than in the
 * card, so it can still close properly once the card it came from has gone.
 */
export function DeleteBusinessDialog({ business, onClose, returnFocusRef }: DeleteBusinessDialogProps) {
  const remove = useDeleteBusiness();
  return (
    <Dialog
      open={business !== null}
      onClose={onClose}
      title="Delete Business"
      returnFocusRef={returnFocusRef}
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={onClose} disabled={remove.isPending}>
            Keep Business
          </button>
          <button
            type="button"
            className={buttonStyles.danger}
            disabled={remove.isPending}
            aria-busy={remove.isPending || undefined}
            onClick={() => {
              if (!business) return;
              remove.mutate(business, {
                onSuccess: () => {
                  showToast({ title: 'Business configuration deleted successfully', description: business.name });
                  onClose();
                },
                onError: (error) => {
                  showErrorToast({
                    title: 'Failed to delete business configuration',
                    description: errorMessage(error, 'Please try again.'),
                  });
                },
              });
            }}
          >
            {remove.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
            Delete Business
          </button>
        </>
      }
    >
      {business ? (
        <p className="text-stone-800">{`Are you sure you want to delete "${business.name}"? This action cannot be undone.`}</p>
      ) : null}
    </Dialog>
  );
}
