import { CalendarCheck } from 'lucide-react';
import { Dialog } from '../dialog';
import { buttonStyles } from '../ui';

/**
 * Asked before booking a job the Settings deposit rule asks a deposit of, none paid yet
 * (docs/product.md, Getting paid, Each job's money): the rule is the surgeon's own, so they may
 * book anyway, but not without seeing that the deposit has not come.
 */
export function BookBeforeDepositDialog({ open, onClose, onConfirm }: { open: boolean; onClose: () => void; onConfirm: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Book before the deposit is paid?"
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={onClose}>
            Not yet
          </button>
          <button type="button" className={buttonStyles.primary} onClick={onConfirm}>
            <CalendarCheck aria-hidden="true" className="size-4" />
            Book anyway
          </button>
        </>
      }
    >
      <p className="text-stone-800">
        The deposit rule in Settings asks a deposit on this job, and none is paid yet. Book now only if you are content to hold the date without it; a deposit invoice
        can be made under Invoices on this page.
      </p>
    </Dialog>
  );
}
