/**
 * The crew's home page as the server sends it (server/http/crew-home.ts; docs/performance.md, The
 * crew's phone): My days drawn in the page, and the two answers it was drawn from, for the phone's
 * script (dashboard/crew/first-answers.ts) to carry on from without reading them again.
 */
export interface FirstAnswers {
  /** GET /api/auth/me's answer. */
  me: unknown;
  /** GET /api/my-days's answer. */
  myDays: unknown;
  /** When the server read them (ms). */
  asOf: number;
}

/** The page element holding them, as JSON (a data block, never run as a script). */
export const FIRST_ANSWERS_ELEMENT = 'crew-first-answers';

/**
 * The header on the page the server drew (server/http/crew-home.ts): the service worker keeps only
 * such a page as the person's My days (build/dashboard-plugins.ts, written out there).
 */
export const CREW_HOME_HEADER = { name: 'X-Crew-Home', value: 'drawn' } as const;

/** Answers older than this came from a page kept on the phone, not the server just now: read again. */
export const FIRST_ANSWERS_FRESH_MS = 60_000;
