import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { REQUIRED_FIELDS_MESSAGE, type Business } from '../../../core/business';
import { slugFromName } from '../../../core/embed';
import { useCreateBusiness } from '../../api/businesses';
import { errorMessage } from '../../api/client';
import { queryKeys } from '../../api/query-client';
import { signedInApi } from '../../api/signed-in';
import { ErrorAlert } from '../alert';
import { SubmitButton } from '../submit-button';
import { TextField } from '../text-field';
import { showErrorToast, showToast } from '../toast';
import { buttonStyles, cardStyles } from '../ui';
import { BusinessSettingsFields } from './business-settings-fields';
import {
  createBusinessFormSchema,
  EMPTY_CREATE_FORM,
  fieldErrorText,
} from './business-form-schema';
import { PRICING_FIELD_PATHS } from '../pricing/pricing-form';
import { showServerErrors } from './server-errors';

const FIELDS = ['name', 'slug', 'hourlyRate', 'aiInstructions', 'allowedOrigins', 'serviceDistricts', 'dailyCap', 'accentColor', ...PRICING_FIELD_PATHS] as const;

interface CreateBusinessFormProps {
  id: string;
  onCreated: (business: Business) => void;
  onCancel: () => void;
}

/**
 * A new business configuration. The slug follows the name (the rule in
 * docs/product.md, Embed widget) until the user types a slug of their own; name and slug are fixed afterwards,
 * because embeds on other sites point at the slug.
 */
export function CreateBusinessForm({ id, onCreated, onCancel }: CreateBusinessFormProps) {
  const form = useForm({ resolver: zodResolver(createBusinessFormSchema), defaultValues: EMPTY_CREATE_FORM });
  const { errors } = form.formState;
  // Whether the user typed a slug of their own; until then it follows the name.
  const [slugIsOwn, setSlugIsOwn] = useState(false);
  const slug = useWatch({ control: form.control, name: 'slug' });
  const create = useCreateBusiness();
  // A new business starts from the account's own rate (Settings, Pricing), and its prices
  // follow Settings until it is given its own (EMPTY_CREATE_FORM's pricingSource).
  const settings = useQuery({ queryKey: queryKeys.settings, queryFn: signedInApi.settings.get });
  const settingsRate = settings.data && Number(settings.data.hourlyRate) > 0 ? settings.data.hourlyRate : '';
  const startingValues = { ...EMPTY_CREATE_FORM, hourlyRate: settingsRate };

  useEffect(() => {
    if (settingsRate === '' || form.getFieldState('hourlyRate').isDirty || form.getValues('hourlyRate') !== '') return;
    form.setValue('hourlyRate', settingsRate);
  }, [form, settingsRate]);

  useEffect(() => {
    form.setFocus('name');
  }, [form]);

  const nameInput = form.register('name', {
    onChange: (event: { target: { value: string } }) => {
      if (slugIsOwn) return;
      form.setValue('slug', slugFromName(event.target.value), { shouldValidate: form.formState.isSubmitted });
    },
  });
  const slugInput = form.register('slug', {
    // Emptying the slug hands it back to the name.
    onChange: (event: { target: { value: string } }) => {
      setSlugIsOwn(event.target.value !== '');
    },
  });

  const missingRequired = [errors.name, errors.slug, errors.hourlyRate].some((e) => e?.message === REQUIRED_FIELDS_MESSAGE);
  const address = `${window.location.origin}/embed/${slug.trim() || 'your-slug'}`;

  return (
    <section id={id} aria-labelledby={`${id}-title`} className={`${cardStyles} p-4 sm:p-6`}>
      <h2 id={`${id}-title`} className="text-xl font-bold text-green-900">
        New Business
      </h2>
      <p className="mt-1 text-sm text-stone-700">
        Fields marked <span className="text-red-700">*</span> are required.
        {settingsRate ? ' The hourly rate starts as yours in Settings; change it if this business charges differently.' : ''}
      </p>
      <FormProvider {...form}>
        <form
          noValidate
          className="mt-4 flex flex-col gap-5"
          onSubmit={form.handleSubmit((values) =>
            create.mutate(values, {
              onSuccess: (business) => {
                showToast({ title: 'Business configuration created successfully', description: business.name });
                form.reset(startingValues);
                setSlugIsOwn(false);
                onCreated(business);
              },
              onError: (error) => {
                showServerErrors(form, error, FIELDS);
                showErrorToast({
                  title: 'Failed to create business configuration',
                  description: errorMessage(error, 'Please try again.'),
                });
              },
            }),
          )}
        >
          <div className="grid gap-5 md:grid-cols-2">
            <TextField
              label="Business Name"
              required
              autoComplete="organization"
              maxLength={100}
              error={fieldErrorText(errors.name?.message)}
              {...nameInput}
            />
            <TextField
              label="Slug"
              required
              spellCheck={false}
              autoCapitalize="none"
              autoComplete="off"
              hint={`Your estimator's address: ${address}. It cannot be changed later.`}
              error={fieldErrorText(errors.slug?.message)}
              {...slugInput}
            />
          </div>
          <BusinessSettingsFields />
          {missingRequired ? <ErrorAlert>{REQUIRED_FIELDS_MESSAGE}</ErrorAlert> : null}
          <div className="flex flex-col gap-2 sm:flex-row">
            <SubmitButton pending={create.isPending} fullWidth={false} icon={<Plus aria-hidden="true" className="size-4" />}>
              Create Business
            </SubmitButton>
            <button type="button" className={buttonStyles.secondary} onClick={onCancel}>
              Cancel
            </button>
          </div>
        </form>
      </FormProvider>
    </section>
  );
}
