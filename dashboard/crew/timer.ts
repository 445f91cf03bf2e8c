import type { WorkEvent, WorkSummary } from '../../core/crew-day';

/**
 * The timer as the phone shows it: the server's summary (as of when it was read) with the taps
 * still waiting to send applied after it, so Start, Pause and Stop answer at once without signal.
 */
export interface TimerView {
  state: WorkSummary['state'];
  minutes: number;
}

const NEXT_STATE: Record<WorkEvent, WorkSummary['state']> = { start: 'running', resume: 'running', pause: 'paused', stop: 'stopped' };

export function timerView(base: { state: WorkSummary['state']; minutes: number; asOf: number }, taps: { event: WorkEvent; at: string }[], now: number): TimerView {
  let state = base.state;
  let ms = 0;
  let since = base.asOf;
  for (const tap of taps) {
    const at = Math.max(Date.parse(tap.at), since);
    if (state === 'running') ms += at - since;
    state = NEXT_STATE[tap.event];
    since = at;
  }
  if (state === 'running') ms += Math.max(0, now - since);
  return { state, minutes: base.minutes + Math.floor(ms / 60_000) };
}

/** "1 h 25 min", "12 min". */
export function minutesWords(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}
