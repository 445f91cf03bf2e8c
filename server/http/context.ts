import type { UserRow } from '../../db/schema';
import type { SignedInPerson } from '../accounts/sessions';
import type { BusinessRow } from '../businesses/businesses';
import type { AnalysisLoad } from '../analysis/slots';
import type { PostcodeLookups } from '../protection/postcode-lookups';
import type { AppDeps } from '../deps';
import type { RateLimits } from './rate-limit';

/** Hono's typed context for every route: the injected deps and the signed-in user, if any. */
export interface AppEnv {
  Variables: {
    deps: AppDeps;
    /** This request's id (access-log.ts), answered as X-Request-Id and on every log line it writes. */
    requestId: string;
    limits: RateLimits;
    /** The analysis route's image slots and upload idle timeout (createApp). */
    analysisLoad: AnalysisLoad;
    /** The app's postcode lookups: those in flight and the site notes kept (createApp). */
    postcodeLookups: PostcodeLookups;
    /**
     * The team account the signed-in person works in (docs/product.md, Team): the users row that
     * the team's jobs, quotes, invoices, leads, businesses, analyses, settings and credits are keyed
     * by. For the owner of a team of one, that is themselves. Who is asking is `person`.
     */
    user: UserRow | null;
    /** Who is signed in, with their role in the team (server/http/permissions.ts reads it before every route). */
    person: SignedInPerson | null;
    /** SHA-256 of the current session id, when signed in. */
    sessionKey: string | null;
    /** Set on POST /api/analyze-tree?businessSlug=...: the business whose visitor this is. */
    embedBusiness?: BusinessRow;
  };
}
