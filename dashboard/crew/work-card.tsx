import { CheckCheck, Pause, Play, Square } from 'lucide-react';
import { useEffect, useState } from 'react';
import { SITE_CHECK_LIMITS, type JobSheet, type WorkEvent } from '../../core/crew-day';
import { TextArea } from '../components/text-area';
import { cardStyles, tallButtonStyles } from '../components/ui';
import { crewPaths } from './api';
import type { OutboxItem } from './outbox';
import { minutesWords, timerView } from './timer';
import { useOutboxStatus, useQueueChange, useReviseChange } from './use-outbox';

const EVENT_WORDS: Record<WorkEvent, string> = { start: 'Start', pause: 'Pause', resume: 'Resume', stop: 'Stop' };

function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}

function isWork(item: OutboxItem): item is OutboxItem & { body: { event: WorkEvent; at: string } } {
  return item.kind === 'work' && typeof item.body?.event === 'string';
}

/** A start the server holds back for want of a complete, signed site check (still waiting, in its place in the order). */
function heldStart(items: OutboxItem[], jobId: number): OutboxItem | undefined {
  return items.find((i) => i.jobId === jobId && isWork(i) && i.body.event === 'start' && i.problem?.code === 'SITE_CHECK_MISSING');
}

/**
 * The timer (docs/product.md, The crew's day): Start, Pause, Resume and Stop with the running
 * minutes, each tap kept with the phone's time and its own id, so a replay counts once. A start
 * the server holds back without a complete check (the other signatures may still be on another
 * phone without signal) says the server's sentence and offers "Start anyway" with a reason, given
 * to that same start where it stands, so the taps after it still follow it.
 */
export function WorkCard({ sheet, asOf }: { sheet: JobSheet; asOf: number }) {
  const status = useOutboxStatus();
  const queue = useQueueChange();
  const revise = useReviseChange();
  const now = useNow(15_000);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [note, setNote] = useState('');
  const [finishing, setFinishing] = useState(false);

  const taps = status.waiting.filter((i) => i.jobId === sheet.jobId).filter(isWork).map((i) => i.body);
  const finishWaiting = status.waiting.some((i) => i.jobId === sheet.jobId && i.kind === 'finish');
  const refused = heldStart(status.waiting, sheet.jobId);
  const view = timerView({ state: sheet.work.state, minutes: sheet.work.minutesOnSite, asOf }, taps, now);
  const done = sheet.status === 'done' || finishWaiting;

  const tap = (event: WorkEvent, withReason?: string) => {
    const clientId = crypto.randomUUID();
    const body: Record<string, unknown> = { event, at: new Date().toISOString(), clientId, ...(withReason ? { reason: withReason } : {}) };
    return queue({ jobId: sheet.jobId, kind: 'work', method: 'POST', path: crewPaths.work(sheet.jobId), body, key: clientId, label: `${EVENT_WORDS[event]} the timer on ${sheet.reference}` });
  };

  const startAnyway = async () => {
    const text = reason.trim();
    if (!text || text.length > SITE_CHECK_LIMITS.reason) {
      setReasonError(`Say why work starts without a complete site check (at most ${SITE_CHECK_LIMITS.reason} characters)`);
      return;
    }
    setReasonError(undefined);
    if (refused) await revise(refused.id, { ...refused.body, reason: text });
    else await tap('start', text);
    setReason('');
  };

  const finish = async () => {
    await queue({ jobId: sheet.jobId, kind: 'finish', method: 'POST', path: crewPaths.finish(sheet.jobId), body: note.trim() ? { note: note.trim() } : {}, label: `Finish ${sheet.reference}` });
    setFinishing(false);
  };

  const stateWords = { not_started: 'Not started', running: 'Running', paused: 'Paused', stopped: 'Stopped' }[view.state];
  return (
    <section aria-labelledby="work-title" className={`${cardStyles} flex flex-col gap-4 p-4`} data-testid="work">
      <h2 id="work-title" className="text-lg font-semibold text-stone-900">
        Time on site
      </h2>
      <p className="flex items-baseline gap-3" data-testid="timer">
        <span className="text-3xl font-bold text-green-900 tabular-nums">{minutesWords(view.minutes)}</span>
        <span className="text-sm text-stone-700">{stateWords}</span>
      </p>
      {sheet.work.startedWithoutCheck ? (
        <p className="text-sm text-amber-900">
          Started without a complete site check: &ldquo;{sheet.work.startedWithoutCheck.reason}&rdquo; ({sheet.work.startedWithoutCheck.by})
        </p>
      ) : null}

      {refused ? (
        <div className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3" data-testid="start-refused">
          <p className="text-sm font-medium text-amber-950">{refused.problem?.message}</p>
          {refused.problem?.missing?.length ? (
            <ul className="ml-5 list-disc text-sm text-amber-950">
              {refused.problem.missing.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          ) : null}
          <p className="text-sm text-amber-950">The start waits on this phone and goes with the changes after it once the others on site have signed on their own phones.</p>
          <TextArea label="Why work starts without it" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} error={reasonError} maxLength={SITE_CHECK_LIMITS.reason} />
          <button type="button" className={`${tallButtonStyles.dangerOutline} w-full`} onClick={() => void startAnyway()}>
            Start anyway
          </button>
        </div>
      ) : null}

      {done ? (
        <p className="text-sm font-medium text-green-900">{finishWaiting ? 'Finished: waiting to send.' : 'This job is done.'}</p>
      ) : (
        <div className="grid grid-cols-2 gap-2">
          {view.state === 'not_started' ? (
            <button type="button" className={`${tallButtonStyles.primary} col-span-2 min-h-14 text-base`} onClick={() => void tap('start')}>
              <Play aria-hidden="true" className="size-5" />
              Start
            </button>
          ) : null}
          {view.state === 'running' ? (
            <button type="button" className={`${tallButtonStyles.secondary} min-h-14 text-base`} onClick={() => void tap('pause')}>
              <Pause aria-hidden="true" className="size-5" />
              Pause
            </button>
          ) : null}
          {view.state === 'paused' ? (
            <button type="button" className={`${tallButtonStyles.primary} min-h-14 text-base`} onClick={() => void tap('resume')}>
              <Play aria-hidden="true" className="size-5" />
              Resume
            </button>
          ) : null}
          {view.state === 'running' || view.state === 'paused' ? (
            <button type="button" className={`${tallButtonStyles.dangerOutline} min-h-14 text-base`} onClick={() => void tap('stop')}>
              <Square aria-hidden="true" className="size-5" />
              Stop
            </button>
          ) : null}
        </div>
      )}

      {!done ? (
        finishing ? (
          <div className="flex flex-col gap-3 border-t border-stone-200 pt-4">
            <TextArea label="A note for the office (optional)" rows={3} value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} />
            <div className="grid grid-cols-2 gap-2">
              <button type="button" className={tallButtonStyles.secondary} onClick={() => setFinishing(false)}>
                Cancel
              </button>
              <button type="button" className={tallButtonStyles.primary} onClick={() => void finish()}>
                <CheckCheck aria-hidden="true" className="size-4" />
                Finish the job
              </button>
            </div>
          </div>
        ) : (
          <button type="button" className={`${tallButtonStyles.secondary} w-full`} onClick={() => setFinishing(true)} disabled={view.state === 'running'}>
            <CheckCheck aria-hidden="true" className="size-4" />
            Finish the job
          </button>
        )
      ) : null}
      {!done && view.state === 'running' ? <p className="text-xs text-stone-600">Stop the timer before finishing.</p> : null}
    </section>
  );
}
