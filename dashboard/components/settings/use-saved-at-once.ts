import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SettingsResponse } from '../../../core/settings';
import { errorMessage } from '../../api/client';
import { queryKeys } from '../../api/query-client';
import { showErrorToast } from '../toast';

/**
 * A setting saved as soon as it is pressed (a switch, a radio). Returns the value to show and
 * the press handler. The value pressed is held in this hook's own state from the press on: the
 * mutation's pending state reaches React a render later, and a controlled input would flick
 * back to the saved value in between (and a click checked straight after would see it unchanged).
 * On failure the saved value shows again and the error is toasted.
 */
export function useSavedAtOnce<T>(
  saved: T,
  update: (value: T) => Promise<SettingsResponse>,
  onSaved: (settings: SettingsResponse) => void,
): { shown: T; saving: boolean; press: (value: T) => void } {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: update,
    onSuccess: (settings: SettingsResponse) => {
      queryClient.setQueryData(queryKeys.settings, settings);
      onSaved(settings);
    },
    onError: (error) => showErrorToast({ title: 'Failed to Update Settings', description: errorMessage(error, 'Please try again.') }),
  });
  const [pressed, setPressed] = useState<{ value: T } | null>(null);
  return {
    shown: pressed ? pressed.value : save.isPending ? (save.variables as T) : saved,
    saving: pressed !== null || save.isPending,
    press: (value) => {
      setPressed({ value });
      save.mutate(value, { onSettled: () => setPressed(null) });
    },
  };
}
