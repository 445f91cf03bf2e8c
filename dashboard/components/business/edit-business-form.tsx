import { zodResolver } from '@hookform/resolvers/zod';
import { Save } from 'lucide-react';
import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import type { Business } from '../../../core/business';
import { useUpdateBusiness } from '../../api/businesses';
import { errorMessage } from '../../api/client';
import { SubmitButton } from '../submit-button';
import { showErrorToast, showToast } from '../toast';
import { buttonStyles } from '../ui';
import { BusinessSettingsFields } from './business-settings-fields';
import { editBusinessFormSchema, editFormValues } from './business-form-schema';
import { PRICING_FIELD_PATHS } from '../pricing/pricing-form';
import { showServerErrors } from './server-errors';

const FIELDS = ['hourlyRate', 'aiInstructions', 'allowedOrigins', 'serviceDistricts', 'dailyCap', 'accentColor', ...PRICING_FIELD_PATHS] as const;

/** A business's card turned into a small form: what can change after creation, saved with PATCH. */
export function EditBusinessForm({ business, onDone }: { business: Business; onDone: () => void }) {
  const form = useForm({ resolver: zodResolver(editBusinessFormSchema), defaultValues: editFormValues(business) });
  const update = useUpdateBusiness(business.id);

  useEffect(() => {
    form.setFocus('hourlyRate');
  }, [form]);

  return (
    <FormProvider {...form}>
      <form
        noValidate
        aria-label={`Edit ${business.name}`}
        className="flex flex-col gap-5"
        onSubmit={form.handleSubmit((values) =>
          update.mutate(values, {
            onSuccess: () => {
              showToast({ title: 'Business configuration updated successfully', description: business.name });
              onDone();
            },
            onError: (error) => {
              showServerErrors(form, error, FIELDS);
              showErrorToast({
                title: 'Failed to update business configuration',
                description: errorMessage(error, 'Please try again.'),
              });
            },
          }),
        )}
        onKeyDown={(event) => {
          // Escape leaves the form unchanged, as Cancel does.
          if (event.key === 'Escape' && !update.isPending) onDone();
        }}
      >
        <BusinessSettingsFields />
        <div className="flex flex-col gap-2 sm:flex-row">
          <SubmitButton pending={update.isPending} fullWidth={false} icon={<Save aria-hidden="true" className="size-4" />}>
            Save
          </SubmitButton>
          <button type="button" className={buttonStyles.secondary} onClick={onDone} disabled={update.isPending}>
            Cancel
          </button>
        </div>
      </form>
    </FormProvider>
  );
}
