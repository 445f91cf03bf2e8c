import type { UserRow } from '../../db/schema';
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
    user: UserRow | null;
    /** SHA-256 of the current session id, when signed in. */
    sessionKey: string | null;
    /** Set on POST /api/analyze-tree?businessSlug=...: the business whose visitor this is. */
    embedBusiness?: BusinessRow;
  };
}
