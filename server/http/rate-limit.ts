import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppEnv } from './context';
import { isIP } from 'node:net';
import { networkOf, siteOf } from './client-network';
import { ApiError } from './errors';

/**
 * Rate limits for the account endpoints (docs/security.md, Accounts and sessions), per client address and
 * per account, in memory: the product is one process on one box. Limits are counted
 * in points over a window; once spent, the key is refused until the window ends.
 */
export interface Limit {
  points: number;
  windowSeconds: number;
}

export const ACCOUNT_LIMITS = {
  /**
   * Failed logins (OWASP Authentication Cheat Sheet): 10 per address across
   * accounts and 5 per address against one account in 15 minutes are refused (429), which
   * stops one client guessing without letting anyone lock the account itself. Per account
   * (resolved: username and e-mail count as one) failures only slow every attempt down
   * (loginDelayMs), so the owner's right password from another address still gets in.
   */
  loginFailuresPerAddress: { points: 10, windowSeconds: 15 * 60 },
  loginFailuresPerAddressAndAccount: { points: 5, windowSeconds: 15 * 60 },
  /** A counter, never a refusal: its count sets the account's delay. */
  loginFailuresPerAccount: { points: 1_000_000, windowSeconds: 15 * 60 },
  registrationsPerAddress: { points: 10, windowSeconds: 60 * 60 },
  resetRequestsPerAddress: { points: 10, windowSeconds: 15 * 60 },
  resetRequestsPerEmail: { points: 3, windowSeconds: 60 * 60 },
  resetAttemptsPerAddress: { points: 10, windowSeconds: 15 * 60 },
  /** Wrong passwords when confirming an account deletion: a stolen session cannot guess on. */
  passwordConfirmFailuresPerUser: { points: 5, windowSeconds: 15 * 60 },
  /**
   * Logo uploads: each is decoded and re-encoded in an image slot (the analyses' own), so an
   * account may not queue them without end; someone setting up their quotes tries a few files.
   */
  logoUploadsPerAccount: { points: 10, windowSeconds: 60 * 60 },
} satisfies Record<string, Limit>;

/**
 * The public embed endpoints spend a business owner's credits or reach their inbox, so
 * they are limited per client address and per business (the daily cap is the owner's
 * own, stricter budget). A visitor runs a handful of estimates; a script runs hundreds.
 */
export const EMBED_LIMITS = {
  embedAnalysesPerAddress: { points: 10, windowSeconds: 60 * 60 },
  embedAnalysesPerBusiness: { points: 30, windowSeconds: 10 * 60 },
  embedLookupsPerAddress: { points: 120, windowSeconds: 60 },
  leadsPerAddress: { points: 5, windowSeconds: 60 * 60 },
  /** The widget's reports of a chosen photo (the one funnel step the server cannot see). */
  embedEventsPerAddress: { points: 60, windowSeconds: 60 * 60 },
  /**
   * How often one address adds to one business's count of one funnel step (loads, photos): as
   * often as a person could by hand, reloading or choosing photos; past it the request is
   * still served, only not counted.
   */
  funnelCountsPerAddress: { points: 20, windowSeconds: 60 * 60 },
  /**
   * Requests to the public estimator refused for their shape (400, 408, 413, 415): they never
   * spend a visitor's or the business's estimates (only a real upload does), so they are counted
   * here instead, per network and cheaply, before the body is read. A widget never sends one;
   * a person retrying a bad photo sends a few.
   */
  malformedPerAddress: { points: 30, windowSeconds: 10 * 60 },
} satisfies Record<string, Limit>;

/**
 * The help assistant answers signed-out visitors too and may spend model tokens: a person
 * asks a question every few seconds at most, a script far faster.
 */
/**
 * A customer's quote link (routes/quotes.ts): a person opens and answers one quote a few times;
 * 60 in 10 minutes from one network is far past that and far below trying tokens.
 */
export const QUOTE_LIMITS = {
  quoteLinksPerAddress: { points: 60, windowSeconds: 10 * 60 },
  /** The customer's invoice links, as quote links: a script cannot try tokens at speed. */
  invoiceLinksPerAddress: { points: 60, windowSeconds: 10 * 60 },
} satisfies Record<string, Limit>;

/**
 * A job's protected-trees lookup (routes/protection.ts): each asks two public services two or
 * three times, so an account may not make the server hammer them. Counted only when a lookup
 * would ask (a job's lookup is kept a month; joining one on its way is free): a surgeon adding
 * jobs asks a handful an hour, a script hundreds.
 */
export const LOOKUP_LIMITS = {
  protectionLookupsPerAccount: { points: 30, windowSeconds: 10 * 60 },
} satisfies Record<string, Limit>;

/**
 * A team (routes/team.ts; docs/product.md, Team). An owner setting up a team of one to four crews
 * invites a dozen people and sends a few again; 20 an hour is past that, and stops an account
 * using its invitations to mail strangers in bulk. Invitation links, like quote links, are tried
 * per network: only a link that opens nothing (410) spends, so a person opening, reloading and
 * joining never meets the limit, while a script trying tokens is stopped after 20 misses.
 */
export const TEAM_LIMITS = {
  teamInvitationsPerAccount: { points: 20, windowSeconds: 60 * 60 },
  invitationLinkMissesPerAddress: { points: 20, windowSeconds: 10 * 60 },
} satisfies Record<string, Limit>;

export const CHAT_LIMITS = {
  chatMessagesPerAddress: { points: 30, windowSeconds: 10 * 60 },
} satisfies Record<string, Limit>;

export const RATE_LIMITS = { ...ACCOUNT_LIMITS, ...EMBED_LIMITS, ...QUOTE_LIMITS, ...LOOKUP_LIMITS, ...TEAM_LIMITS, ...CHAT_LIMITS };

/**
 * How many times a /64's points the /56 around it may spend (docs/security.md, Abuse of the
 * public estimator). Every limit keyed by a client's network counts an IPv6 client twice: by its
 * /64 and by its /56 (client-network.ts siteOf). RFC 6177 lets an ISP give a home up to a /56
 * (256 /64s), so the /64 alone would let one household multiply every allowance by 256; but a
 * mobile network gives each phone its own /64 from a shared pool, so a /56 alone would lump
 * strangers together. Four is a home with a few networks of its own (a main LAN, guests, a
 * work VLAN) each able to use a whole /64's allowance, while a client hopping across its /56
 * gets four /64s' worth, not 256; strangers on one mobile /56 still share four people's worth of
 * a limit that one person seldom reaches.
 */
export const SITE_ALLOWANCE = 4;
export type LimitName = keyof typeof RATE_LIMITS;

/**
 * What a refusal says: a fixed text, or one written from the wait in whole seconds (the same
 * figure as Retry-After), optionally under a code of its own (the visitor's VISITOR_LIMIT).
 */
export type Refusal = string | { code?: 'RATE_LIMITED' | 'VISITOR_LIMIT'; message: (waitSeconds: number) => string };

function tooMany(msBeforeNext: number, refusal?: Refusal): ApiError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  const minutes = Math.ceil(seconds / 60);
  const code = typeof refusal === 'object' ? (refusal.code ?? 'RATE_LIMITED') : 'RATE_LIMITED';
  const message =
    typeof refusal === 'object'
      ? refusal.message(seconds)
      : (refusal ?? `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`);
  return new ApiError(code, message, { headers: { 'Retry-After': String(seconds) } });
}

/**
 * The wait before a login attempt on an account with `failures` recent failures: none for the
 * first 3 (typos), then doubling from 1 s up to 16 s. Every attempt on the account waits,
 * right password or not, so guessing slows to a few tries a minute per account while the
 * owner still signs in.
 */
export interface LoginDelay {
  freeFailures: number;
  baseMs: number;
  maxMs: number;
}
export const LOGIN_DELAY: LoginDelay = { freeFailures: 3, baseMs: 1_000, maxMs: 16_000 };

export function loginDelayMs(failures: number, delay: LoginDelay = LOGIN_DELAY): number {
  if (failures < delay.freeFailures) return 0;
  return Math.min(delay.maxMs, delay.baseMs * 2 ** (failures - delay.freeFailures));
}

export class RateLimits {
  private readonly limiters = new Map<LimitName, RateLimiterMemory>();
  /** The same limits for the /56 around an IPv6 /64 key, SITE_ALLOWANCE times the points. */
  private readonly siteLimiters = new Map<LimitName, RateLimiterMemory>();
  private readonly limits: Record<LimitName, Limit>;
  readonly loginDelay: LoginDelay;

  /** Tests may loosen or tighten single limits (and the login delay); the rest keep their defaults. */
  constructor(overrides: Partial<Record<LimitName, Limit>> = {}, options: { loginDelay?: LoginDelay } = {}) {
    this.loginDelay = options.loginDelay ?? LOGIN_DELAY;
    const limits = { ...RATE_LIMITS, ...overrides };
    this.limits = limits;
    for (const [name, limit] of Object.entries(limits) as [LimitName, Limit][]) {
      this.limiters.set(name, new RateLimiterMemory({ points: limit.points, duration: limit.windowSeconds }));
      this.siteLimiters.set(name, new RateLimiterMemory({ points: limit.points * SITE_ALLOWANCE, duration: limit.windowSeconds }));
    }
  }

  /** The points and window a limit runs with (its default or a test's override). */
  limitOf(name: LimitName): Limit {
    return this.limits[name];
  }

  private limiter(name: LimitName): RateLimiterMemory {
    const limiter = this.limiters.get(name);
    if (!limiter) throw new Error(`unknown rate limit ${name}`);
    return limiter;
  }

  /**
   * The counters a key spends from: its own, and for an IPv6 /64 key also its /56's. Every method
   * below goes through both, so a /64 is refused when either is spent.
   */
  private countersOf(name: LimitName, key: string): { limiter: RateLimiterMemory; key: string }[] {
    const own = { limiter: this.limiter(name), key };
    const site = siteOf(key);
    return site === null ? [own] : [own, { limiter: this.siteLimiters.get(name)!, key: site }];
  }

  /**
   * Spends one point from each counter, or none: one with no point left refuses, and what was
   * taken from the others is given back (a /64 refused for its /56 keeps its own points).
   */
  private async take(name: LimitName, key: string): Promise<RateLimiterRes | null> {
    const taken: { limiter: RateLimiterMemory; key: string }[] = [];
    for (const counter of this.countersOf(name, key)) {
      try {
        await counter.limiter.consume(counter.key);
        taken.push(counter);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        // The library counts a refused point too; taken back, so a later giveBack frees a real one.
        await counter.limiter.reward(counter.key, 1);
        for (const done of taken) await done.limiter.reward(done.key, 1);
        return err;
      }
    }
    return null;
  }

  /** Spends one point; throws 429 with Retry-After once the key (or its /56) has none left. */
  async consume(name: LimitName, key: string, refusal?: Refusal): Promise<void> {
    const refused = await this.take(name, key);
    if (refused) throw tooMany(refused.msBeforeNext, refusal);
  }

  /** Spends one point if the key (and its /56) has one left; false (nothing spent, nothing thrown) when not. */
  async spend(name: LimitName, key: string): Promise<boolean> {
    return (await this.take(name, key)) === null;
  }

  /**
   * Refuses without spending when the key's points are already used: checked before a login, and
   * before a visitor's upload is read (the point is spent only once it proves a real upload).
   */
  async check(name: LimitName, key: string, refusal?: Refusal): Promise<void> {
    for (const { limiter, key: counted } of this.countersOf(name, key)) {
      const res = await limiter.get(counted);
      if (res && res.consumedPoints >= limiter.points) throw tooMany(res.msBeforeNext, refusal);
    }
  }

  /** Whether the key has no point left in its window (the business's status reads "busy" then). */
  async exhausted(name: LimitName, key: string): Promise<boolean> {
    for (const { limiter, key: counted } of this.countersOf(name, key)) {
      const res = await limiter.get(counted);
      if (res !== null && res.consumedPoints >= limiter.points) return true;
    }
    return false;
  }

  /** Gives back a point spent on work that turned out not to be done (a refused upload). */
  async giveBack(name: LimitName, key: string): Promise<void> {
    for (const { limiter, key: counted } of this.countersOf(name, key)) {
      if (((await limiter.get(counted))?.consumedPoints ?? 0) > 0) await limiter.reward(counted, 1);
    }
  }

  /** Points the key itself has spent in its current window (0 when none). */
  async count(name: LimitName, key: string): Promise<number> {
    return (await this.limiter(name).get(key))?.consumedPoints ?? 0;
  }

  async reset(name: LimitName, key: string): Promise<void> {
    for (const { limiter, key: counted } of this.countersOf(name, key)) await limiter.delete(counted);
  }
}

/**
 * The client's address: the socket peer, or behind one trusted proxy (TRUST_PROXY) the last
 * X-Forwarded-For hop, the one that proxy wrote. A last hop that is not an IP address (a proxy
 * misconfigured, or one that appends what the client sent) is ignored for the socket's: it is
 * neither a rate limit's key of its own nor stored as where a quote was accepted from.
 */
export function clientAddress(c: Context<AppEnv>): string {
  if (c.var.deps.config.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for');
    const last = forwarded?.split(',').map((s) => s.trim()).filter(Boolean).pop();
    if (last && isIP(last)) return last;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * What every rate limit counts by: the client's network (client-network.ts), so an IPv6 client,
 * which is handed a whole /64 and may pick any address in it, is one key, not 2^64.
 */
export function clientNetwork(c: Context<AppEnv>): string {
  return networkOf(clientAddress(c));
}
