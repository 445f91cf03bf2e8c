import { skipToken, useQuery, type QueryClient, type QueryFunctionContext } from '@tanstack/react-query';
import { mayUse, type AreaName } from '../../core/permissions';
import type { SignedInMember, TeamRole } from '../../core/team';
import { api, ApiError, isApiError, type PublicUser } from './client';
import { queryKeys } from './query-client';
import { userAnswer } from './guest-answers';
import { CREW_API_CACHE, dropSavedAnswers } from './saved-answers';

/** The current user stays fresh for 5 minutes. */
const CURRENT_USER_FRESH_MS = 300_000;

/** docs/product.md, Messages: the one message for a current-user failure other than 401. */
export const CURRENT_USER_ERROR_MESSAGE = 'Failed to fetch user data';

/** What the sign-in screen says when a session ended while a page was open (removed from the team, reset elsewhere, expired). */
export const SIGNED_OUT_NOTICE = 'You have been signed out.';

/** Who is signed in: their own sign-in, and who they are in their team (core/team.ts). */
export interface Session {
  user: PublicUser;
  member: SignedInMember;
}

/**
 * Set by the server beside the HttpOnly session cookie and cleared with it
 * (server/http/session.ts, SESSION_HINT_COOKIE). It says only that a session cookie exists.
 */
const SESSION_HINT = 'ta_signed_in=1';

function mayHaveSession(): boolean {
  return document.cookie.split('; ').includes(SESSION_HINT);
}

/** An answer from before teams carries no `member`: that account is the owner of a team of one. */
export function sessionFrom(answer: { user: PublicUser; member?: SignedInMember }): Session {
  const { user } = answer;
  const name = `${user.firstName} ${user.lastName}`.trim() || user.username;
  return { user, member: answer.member ?? { memberId: null, name, role: 'owner', businessName: name } };
}

/**
 * A 401 means signed out (null); any other failure is an error. Without
 * the hint there is no session cookie to send, so the answer can only be 401: the visitor
 * is signed out at once, and a guest's console shows no failed request. With the
 * hint but a session that ended elsewhere, the server still answers 401 and clears the hint;
 * when this page had someone signed in, the sign-in screen then says they were signed out.
 */
async function fetchSession({ client }: QueryFunctionContext): Promise<Session | null> {
  if (!mayHaveSession()) {
    // The hint went while someone was signed in here (another request's 401 cleared it, or a
    // sign-out in another tab): signed out, and the sign-in screen says so.
    if (client.getQueryData(queryKeys.currentUser)) signedOutHere(client);
    return null;
  }
  const saved = await savedSession();
  if (saved) {
    checkSavedSession(client);
    return saved;
  }
  try {
    return sessionFrom(await api.auth.me());
  } catch (error) {
    if (isApiError(error, 'UNAUTHORIZED')) {
      dropSavedAnswers();
      if (client.getQueryData(queryKeys.currentUser)) signedOutHere(client);
      return null;
    }
    throw new ApiError(CURRENT_USER_ERROR_MESSAGE, error instanceof ApiError ? error.status : 0);
  }
}

let savedSessionTried = false;

/**
 * On the crew's screens, once per page: the copy of who is signed in the service worker kept
 * (vite.dashboard.config.ts), so My days shows from the phone without waiting on the signal
 * (docs/performance.md, The crew's phone); checkSavedSession asks the server straight after.
 * Sign-in and sign-out empty that cache (dropSavedAnswers), so it is never someone else's.
 */
async function savedSession(): Promise<Session | null> {
  if (savedSessionTried) return null;
  savedSessionTried = true;
  if (!window.location.pathname.startsWith('/my-days') || typeof caches === 'undefined') return null;
  try {
    const response = await (await caches.open(CREW_API_CACHE)).match('/api/auth/me');
    const parsed = response ? userAnswer.safeParse(await response.json()) : undefined;
    return parsed?.success ? sessionFrom(parsed.data) : null;
  } catch {
    return null;
  }
}

/** The server's word on a session shown from the phone: the fresh one replaces it, a 401 signs out as usual. */
export function checkSavedSession(client: QueryClient): void {
  setTimeout(() => {
    api.auth.me().then(
      (answer) => client.setQueryData(queryKeys.currentUser, sessionFrom(answer)),
      (error: unknown) => {
        if (isApiError(error, 'UNAUTHORIZED')) void client.invalidateQueries({ queryKey: queryKeys.currentUser });
      },
    );
  }, 0);
}

/** Who is signed in, read before a screen is first drawn (the crew's app, dashboard/crew/main.tsx). */
export function prefetchSession(queryClient: QueryClient): Promise<void> {
  return queryClient.prefetchQuery({ queryKey: queryKeys.currentUser, queryFn: fetchSession, staleTime: CURRENT_USER_FRESH_MS, retry: false });
}

const pickSession = (session: Session | null) => session;
const pickUser = (session: Session | null) => session?.user ?? null;

function useSessionQuery<T>(select: (session: Session | null) => T) {
  return useQuery({
    queryKey: queryKeys.currentUser,
    queryFn: fetchSession,
    // Known at once without the hint: the login screen renders first, with no spinner before it.
    initialData: () => (mayHaveSession() ? undefined : null),
    staleTime: CURRENT_USER_FRESH_MS,
    // Coming back to the tab asks who is signed in, so a person taken out of the team (or whose
    // role changed) sees it then rather than at their next click (docs/product.md, Team).
    refetchOnWindowFocus: 'always',
    retry: false,
    select,
  });
}

/** The signed-in person and their place in the team, null when signed out. */
export function useSession() {
  return useSessionQuery(pickSession);
}

/** The signed-in person's own sign-in (the users row's public fields), null when signed out. */
export function useCurrentUser() {
  return useSessionQuery(pickUser);
}

/** The signed-in person's role; an owner while the session loads is never shown, as pages wait for it (RequireSignedIn). */
export function useRole(): TeamRole {
  return useSession().data?.member.role ?? 'owner';
}

/** Whether the signed-in person's role may use a part of the product (core/permissions.ts). */
export function useMayUse(area: AreaName): boolean {
  return mayUse(useRole(), area);
}

/**
 * After a sign-in, registration or joining a team: anything cached belonged to whoever was
 * here before, so it goes, and the new person becomes the current one at once.
 */
export function startSession(queryClient: QueryClient, session: Session): void {
  dropOthers(queryClient);
  dropSavedAnswers();
  queryClient.setQueryData(queryKeys.currentUser, session);
}

/** Everything cached but who is signed in: it belonged to the person before. */
function dropOthers(queryClient: QueryClient): void {
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== queryKeys.currentUser[0],
  });
}

/**
 * After logout the cache is emptied and the visitor is signed out. The current-user
 * entry is set to null rather than removed, so the screens watching it learn at once.
 */
export function endSession(queryClient: QueryClient): void {
  queryClient.setQueryData(queryKeys.currentUser, null);
  dropOthers(queryClient);
  dropSavedAnswers();
}

/**
 * Any answer of 401 while someone is signed in means their session has ended elsewhere (the
 * owner removed them, a password reset, expiry): they are signed out here too, and the sign-in
 * screen says so (SIGNED_OUT_NOTICE) instead of the page quietly turning into a form.
 */
export function sessionLost(queryClient: QueryClient): void {
  if (!queryClient.getQueryData(queryKeys.currentUser)) {
    queryClient.setQueryData(queryKeys.currentUser, null);
    return;
  }
  endSession(queryClient);
  noteSignedOut(queryClient);
}

/** Someone signed in on this page is no longer: what was theirs goes, and the sign-in screen says why. */
function signedOutHere(queryClient: QueryClient): void {
  dropSavedAnswers();
  dropOthers(queryClient);
  noteSignedOut(queryClient);
}

function noteSignedOut(queryClient: QueryClient): void {
  queryClient.setQueryData(queryKeys.signedOutNotice, SIGNED_OUT_NOTICE);
}

/** The notice the sign-in screen shows after a session ended while a page was open; cleared by the next sign-in. */
export function useSignedOutNotice(): string | null {
  // Never fetched: only sessionLost writes it, and startSession and endSession remove it.
  return useQuery<string | null>({ queryKey: queryKeys.signedOutNotice, queryFn: skipToken, initialData: null }).data ?? null;
}
