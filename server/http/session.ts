import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { sealData, unsealData } from 'iron-session';
import { ADMIN_ONLY_MESSAGE } from '../../core/admin';
import { resumeSession, SESSION_TTL_MS, sessionKey, startSession } from '../accounts/sessions';
import type { AppEnv } from './context';
import { ApiError } from './errors';
import { UnsealedCookies } from './unsealed-cookies';

/**
 * The session cookie holds a random 256-bit id sealed (encrypted and signed) with
 * iron-session; the sessions table is keyed by the id's SHA-256 (docs/security.md, Accounts and sessions).
 */
export const SESSION_COOKIE = 'ta_session';
const TTL_SECONDS = SESSION_TTL_MS / 1000;

/**
 * "A session cookie was set": readable by the dashboard's script, holding nothing but "1",
 * so a guest page knows there is no session without asking GET /api/auth/me, whose honest
 * 401 would otherwise be logged in every guest's console (Lighthouse counts it against
 * best practices). It is written and cleared with the session cookie, with the
 * same path, SameSite, Secure and lifetime; it grants nothing (the sealed, HttpOnly
 * session cookie and its database row still decide every request), and when it outlives
 * the session (ended elsewhere by a reset) the next /api/auth/me answers 401 and clears it.
 */
export const SESSION_HINT_COOKIE = 'ta_signed_in';

interface SessionCookie {
  sid: string;
}

async function writeCookie(c: Context<AppEnv>, sid: string): Promise<void> {
  const { config } = c.var.deps;
  const sealed = await sealData({ sid } satisfies SessionCookie, { password: config.sessionSecret, ttl: TTL_SECONDS });
  setCookie(c, SESSION_COOKIE, sealed, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: config.secureCookies,
    path: '/',
    maxAge: TTL_SECONDS,
  });
  writeHintCookie(c);
}

function writeHintCookie(c: Context<AppEnv>): void {
  setCookie(c, SESSION_HINT_COOKIE, '1', {
    httpOnly: false,
    sameSite: 'Lax',
    secure: c.var.deps.config.secureCookies,
    path: '/',
    maxAge: TTL_SECONDS,
  });
}

/** What a session cookie holds: the id, and its SHA-256, the sessions table's key. */
interface CookieSession {
  sid: string;
  key: string;
}

/** One memory per app (its deps), so two apps in one process never share unsealed values. */
const unsealedByApp = new WeakMap<object, UnsealedCookies<CookieSession>>();

/**
 * The session a cookie names: from the memory of recent cookies, else unsealed and hashed
 * (the hash is remembered too: a signed-in read spent several µs on it).
 */
async function cookieSessionOf(c: Context<AppEnv>, raw: string): Promise<CookieSession | undefined> {
  const deps = c.get('deps');
  let unsealed = unsealedByApp.get(deps);
  if (!unsealed) unsealedByApp.set(deps, (unsealed = new UnsealedCookies<CookieSession>()));
  const nowMs = deps.clock.now().getTime();
  const known = unsealed.get(raw, nowMs);
  if (known) return known;
  let data: Partial<SessionCookie> = {};
  try {
    data = await unsealData<SessionCookie>(raw, { password: deps.config.sessionSecret, ttl: TTL_SECONDS });
  } catch {
    data = {};
  }
  if (typeof data.sid !== 'string') return undefined;
  const found = { sid: data.sid, key: sessionKey(data.sid) };
  unsealed.set(raw, found, nowMs);
  return found;
}

/**
 * Loads the signed-in user, if any, into `c.var.user`; extends the session when due.
 * The sessions row is read on every request, so a logout or reset counts at once.
 */
export const loadSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('user', null);
  c.set('person', null);
  c.set('sessionKey', null);
  // One parse of the Cookie header for both names; c.get, not c.var, which copies every
  // variable into a new object on each read (this runs on every API request).
  const cookies = getCookie(c);
  const raw = cookies[SESSION_COOKIE];
  if (raw) {
    const { db, clock } = c.get('deps');
    const named = await cookieSessionOf(c, raw);
    const session = named ? resumeSession(db, clock, named.key) : undefined;
    if (session && named) {
      c.set('user', session.account);
      c.set('person', session.person);
      c.set('sessionKey', session.key);
      if (session.extended) await writeCookie(c, named.sid);
      // A session from before the hint existed (or a hint the visitor deleted) gets one.
      else if (!cookies[SESSION_HINT_COOKIE]) writeHintCookie(c);
    } else {
      clearSessionCookie(c);
    }
  } else if (cookies[SESSION_HINT_COOKIE]) {
    deleteCookie(c, SESSION_HINT_COOKIE, { path: '/' });
  }
  await next();
};

/** Signs a user in: a new session id every time (no fixation), sealed into the cookie. */
export async function signIn(c: Context<AppEnv>, userId: number): Promise<void> {
  const { db, clock } = c.var.deps;
  const session = startSession(db, clock, userId);
  await writeCookie(c, session.id);
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
  deleteCookie(c, SESSION_HINT_COOKIE, { path: '/' });
}

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('user')) throw new ApiError('UNAUTHORIZED', 'Please sign in to continue');
  await next();
};

/**
 * The install's admin role is the person's own users row, read with the session on every request
 * (docs/product.md, Accounts): an office member of an admin's team is not an admin.
 */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const person = c.get('person');
  if (!person) throw new ApiError('UNAUTHORIZED', 'Please sign in to continue');
  if (person.user.role !== 'admin') throw new ApiError('FORBIDDEN', ADMIN_ONLY_MESSAGE);
  await next();
};

/**
 * The team account inside a route guarded by requireUser: the users row whose id keys the team's
 * records (context.ts). Who is asking is currentPerson.
 */
export function currentUser(c: Context<AppEnv>) {
  const user = c.get('user');
  if (!user) throw new ApiError('UNAUTHORIZED', 'Please sign in to continue');
  return user;
}

/** Who is signed in (their own users row, role and team membership), inside a signed-in route. */
export function currentPerson(c: Context<AppEnv>) {
  const person = c.get('person');
  if (!person) throw new ApiError('UNAUTHORIZED', 'Please sign in to continue');
  return person;
}

/** Who acts in a signed-in route: the team's account (whose id keys its records) and the person doing it. */
export function currentActor(c: Context<AppEnv>): { accountId: number; personId: number } {
  return { accountId: currentUser(c).id, personId: currentPerson(c).user.id };
}
