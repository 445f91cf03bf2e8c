import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { nestingSeasonSchema, seasonInWords, type NestingSeason } from '../../../core/protection';
import { errorMessage, isApiError } from '../../api/client';
import { queryKeys } from '../../api/query-client';
import { signedInApi } from '../../api/signed-in';
import { SubmitButton } from '../submit-button';
import { TextField } from '../text-field';
import { showErrorToast, showToast } from '../toast';
import { cardStyles } from '../ui';

/**
 * The nesting season bookings are checked against (docs/product.md, Protected trees): felling,
 * reductions and hedge work booked inside it carry "Check for nesting birds before starting".
 * 1 March to 31 August unless changed; a season may run across the new year.
 */
export function NestingSeasonSection({ saved }: { saved: NestingSeason }) {
  const queryClient = useQueryClient();
  const form = useForm({ resolver: zodResolver(nestingSeasonSchema), defaultValues: saved });
  const { isDirty } = form.formState;
  useEffect(() => {
    if (!isDirty) form.reset(saved);
  }, [saved, isDirty, form]);

  const save = useMutation({
    mutationFn: (nestingSeason: z.output<typeof nestingSeasonSchema>) => signedInApi.settings.update({ nestingSeason }),
    onSuccess: (settings) => {
      queryClient.setQueryData(queryKeys.settings, settings);
      form.reset(settings.nestingSeason);
      showToast({ title: 'Nesting Season Saved', description: `Bookings from ${seasonInWords(settings.nestingSeason)} carry the nesting birds check.` });
    },
    onError: (error) => {
      const details = isApiError(error, 'VALIDATION_ERROR') ? error.details : undefined;
      if (details?.['nestingSeason.from']?.[0]) form.setError('from', { message: details['nestingSeason.from'][0] });
      if (details?.['nestingSeason.to']?.[0]) form.setError('to', { message: details['nestingSeason.to'][0] });
      showErrorToast({ title: 'Failed to Update Settings', description: errorMessage(error, 'Please try again.') });
    },
  });

  return (
    <section aria-labelledby="nesting-season-title" className={`${cardStyles} mt-8 p-4 sm:p-6`}>
      <h2 id="nesting-season-title" className="text-xl font-bold text-green-900">
        Nesting season
      </h2>
      <p className="mt-1 max-w-prose text-sm text-stone-700">
        Felling, reductions and hedge work booked in these months carry &ldquo;Check for nesting birds before starting&rdquo; on the
        booking, its calendar event and the job page. Natural England and the RSPB give 1 March to 31 August.
      </p>
      <form noValidate aria-label="Nesting season" onSubmit={form.handleSubmit((values) => save.mutate(values))} className="mt-5 flex flex-col gap-3">
        <div className="grid max-w-md gap-3 sm:grid-cols-2">
          <TextField label="Nesting season from" hint="Month and day, MM-DD" autoComplete="off" inputMode="numeric" error={form.formState.errors.from?.message} {...form.register('from')} />
          <TextField label="Nesting season to" hint="MM-DD; before the start for a season across the new year" autoComplete="off" inputMode="numeric" error={form.formState.errors.to?.message} {...form.register('to')} />
        </div>
        <div>
          <SubmitButton pending={save.isPending} fullWidth={false} icon={<Save aria-hidden="true" className="size-4" />}>
            Save Nesting Season
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
