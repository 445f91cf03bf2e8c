import type { QueryClient } from '@tanstack/react-query';
import { FIRST_ANSWERS_ELEMENT, FIRST_ANSWERS_FRESH_MS, type FirstAnswers } from '../../core/crew-home';
import { userAnswer } from '../api/guest-answers';
import { queryKeys } from '../api/query-client';
import { checkSavedSession, sessionFrom } from '../api/session';
import { crewKeys, type Read } from './api';
import { myDaysAnswer, type MyDaysShown } from './my-days-answer';

export type { FirstAnswers } from '../../core/crew-home';

/**
 * The answers into the query cache, as if read from the server just now; false, and nothing
 * stored, when either is not what the screens read (the page was not the server's).
 */
export function seedFirstAnswers(queryClient: QueryClient, answers: FirstAnswers): boolean {
  const me = userAnswer.safeParse(answers.me);
  const days = myDaysAnswer.safeParse(answers.myDays);
  if (!me.success || !days.success || !Number.isFinite(answers.asOf)) return false;
  queryClient.setQueryData(queryKeys.currentUser, sessionFrom(me.data));
  queryClient.setQueryData<Read<MyDaysShown>>(crewKeys.myDays, { data: days.data, asOf: answers.asOf });
  return true;
}

/** The answers the page holds, if the server put them in it. */
export function firstAnswersOnPage(): FirstAnswers | null {
  const text = document.getElementById(FIRST_ANSWERS_ELEMENT)?.textContent;
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as Partial<FirstAnswers> | null;
    return parsed && typeof parsed.asOf === 'number' ? { me: parsed.me, myDays: parsed.myDays, asOf: parsed.asOf } : null;
  } catch {
    return null;
  }
}

/**
 * Answers from a page the phone kept (the service worker's copy of My days as last drawn) are
 * shown, then read again: who is signed in is asked of the server (a 401 signs out), and My days
 * is marked stale so its screen reads it on opening. The screen says how old the copy is meanwhile.
 */
export function refreshKeptAnswers(queryClient: QueryClient, answers: FirstAnswers, now = Date.now()): boolean {
  if (now - answers.asOf < FIRST_ANSWERS_FRESH_MS) return false;
  checkSavedSession(queryClient);
  void queryClient.invalidateQueries({ queryKey: crewKeys.myDays, refetchType: 'none' });
  return true;
}
