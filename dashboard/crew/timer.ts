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
    // Only a timer already running when the summary was read has minutes counted up to then: a
    // tap after a stopped or paused timer counts from its own moment, even if the phone's clock is
    // behind the server's (the summary's time is the server's).
    const at = state === 'running' ? Math.max(Date.parse(tap.at), since) : Date.parse(tap.at);
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
