import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Send } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { Analysis, FeedbackInput } from '../../../core/analysis';
import { formatDuration, formatTimeRange, parseDuration } from '../../../core/format';
import { rememberAnalysis } from '../../api/analysis';
import { errorMessage } from '../../api/client';
import { signedInApi } from '../../api/signed-in';
import { ErrorAlert } from '../alert';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
import { showErrorToast, showToast } from '../toast';
import { SubmitButton } from '../submit-button';
import { buttonStyles, cardStyles } from '../ui';
import { TIME_COMPONENTS } from './results-stage';
import { StageHeading } from './stage-heading';

const FEEDBACK_MAX_CHARS = 2000;

/**
 * docs/product.md, Analysis: whole minutes, each optional, sent as minutes. Typed as text, so "" stays "not
 * given" and the time can be written as the estimate beside it is, "2h 30m".
 */
const durationText = z
  .string()
  .trim()
  .refine((v) => v === '' || parseDuration(v) !== null, 'Enter minutes (45) or hours and minutes (2h 30m)');

const feedbackFormSchema = z.object({
  actualCuttingTime: durationText,
  actualPrepTime: durationText,
  actualCleanupTime: durationText,
  feedback: z.string().max(FEEDBACK_MAX_CHARS),
});
type FeedbackForm = z.infer<typeof feedbackFormSchema>;
type TimeField = Exclude<keyof FeedbackForm, 'feedback'>;

const AT_LEAST_ONE = 'Enter at least one actual time or a comment.';

/** The PATCH body: empty fields are left out. */
function toFeedbackInput(values: FeedbackForm): FeedbackInput {
  const input: FeedbackInput = {};
  for (const field of ['actualCuttingTime', 'actualPrepTime', 'actualCleanupTime'] as const) {
    const minutes = values[field] === '' ? null : parseDuration(values[field]);
    if (minutes !== null) input[field] = minutes;
  }
  const comment = values.feedback.trim();
  if (comment) input.feedback = comment;
  return input;
}

const asText = (minutes: number | null) => (minutes === null ? '' : formatDuration(minutes));

const LABELS: Record<TimeField, string> = {
  actualCuttingTime: 'Actual cutting time',
  actualPrepTime: 'Actual prep & setup time',
  actualCleanupTime: 'Actual cleanup time',
};

interface FeedbackStageProps {
  analysis: Analysis;
  onBack: () => void;
  /** After a successful submit and its toast; gets the analysis as the server now has it. */
  onSubmitted: (analysis: Analysis) => void;
  focusHeading: boolean;
}

/** Feedback: the estimate beside inputs for what the job really took. */
export function FeedbackStage({ analysis, onBack, onSubmitted, focusHeading }: FeedbackStageProps) {
  const queryClient = useQueryClient();
  const form = useForm({
    resolver: zodResolver(feedbackFormSchema),
    defaultValues: {
      actualCuttingTime: asText(analysis.actualCuttingTime),
      actualPrepTime: asText(analysis.actualPrepTime),
      actualCleanupTime: asText(analysis.actualCleanupTime),
      feedback: analysis.feedback ?? '',
    } satisfies FeedbackForm,
  });
  const { errors } = form.formState;

  const send = useMutation({
    mutationFn: (input: FeedbackInput) => signedInApi.analysis.sendFeedback(analysis.id, input),
    onSuccess: ({ analysis: answer }) => {
      // The feedback answer leaves businessName out (null); the analysis still has one.
      const saved = { ...answer, businessName: answer.businessName ?? analysis.businessName };
      rememberAnalysis(queryClient, saved);
      showToast({ title: 'Feedback Submitted', description: 'Thank you! Your feedback will help improve future estimates.' });
      onSubmitted(saved);
    },
    onError: (error) => {
      showErrorToast({ title: 'Failed to Submit Feedback', description: errorMessage(error, 'Please try again.') });
    },
  });

  const submit = form.handleSubmit((values) => {
    const input = toFeedbackInput(values);
    if (Object.keys(input).length === 0) {
      form.setError('root', { message: AT_LEAST_ONE });
      return;
    }
    send.mutate(input);
  });

  return (
    <section aria-labelledby="feedback-title" className={`${cardStyles} p-4 sm:p-6`}>
      <StageHeading id="feedback-title" focus={focusHeading}>
        Provide Feedback
      </StageHeading>
      <p className="mt-1 mb-5 text-sm text-stone-700">
        How long did the job really take? Your actual times calibrate your future estimates. Fill in what you know, in minutes (45) or hours and minutes (2h 30m).
      </p>
      <form noValidate onSubmit={submit} className="flex flex-col gap-5">
        {errors.root ? <ErrorAlert>{errors.root.message}</ErrorAlert> : null}
        <div className="grid gap-4 sm:grid-cols-3">
          {TIME_COMPONENTS.map((c) => (
            <TextField
              key={c.actual}
              label={LABELS[c.actual]}
              hint={`Estimated: ${formatTimeRange({ min: analysis[c.min], max: analysis[c.max] })}`}
              autoComplete="off"
              error={errors[c.actual]?.message}
              {...form.register(c.actual, { onChange: () => form.clearErrors('root') })}
            />
          ))}
        </div>
        <TextArea
          label="Comments"
          hint="Optional. Anything that made the job quicker or slower than expected."
          maxLength={FEEDBACK_MAX_CHARS}
          error={errors.feedback?.message}
          {...form.register('feedback', { onChange: () => form.clearErrors('root') })}
        />
        <div className="flex flex-col gap-2 sm:flex-row">
          <SubmitButton pending={send.isPending} fullWidth={false} icon={<Send aria-hidden="true" className="size-4" />}>
            Submit Feedback
          </SubmitButton>
          <button type="button" className={buttonStyles.secondary} onClick={onBack}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to Results
          </button>
        </div>
      </form>
    </section>
  );
}
