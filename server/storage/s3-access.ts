/**
 * What an `s3://` URL and the shared S3 variables must be, for both users of them: the photo
 * store (PHOTO_STORE_URL, store-url.ts) and the database replica (REPLICA_URL,
 * server/replication/replica-settings.ts). One set of rules for one set of variables. Pure:
 * the problems are sentences that config.ts turns into its ConfigError.
 */

/**
 * us-east-1 when S3_REGION is unset: AWS's own default, what MinIO and s3rver sign with, and a
 * name Cloudflare R2 takes as its "auto" (R2's S3 API docs). Set S3_REGION for any other AWS region.
 */
export const DEFAULT_S3_REGION = 'us-east-1';

/** S3's bucket naming rules (lower-case letters, digits, dots and hyphens, 3-63 long). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** A path of plain segments: no `..`, no empty segment, nothing a key could escape by. */
const PATH_SEGMENT = /^[A-Za-z0-9._-]{1,100}$/;

export function isBucketName(name: string): boolean {
  return BUCKET.test(name);
}

/** Every segment plain (PATH_SEGMENT, and neither `.` nor `..`). */
export function arePlainSegments(segments: readonly string[]): boolean {
  return segments.every((segment) => PATH_SEGMENT.test(segment) && segment !== '.' && segment !== '..');
}

export interface S3Env {
  S3_ENDPOINT?: string;
  S3_REGION?: string;
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
}

export interface S3Access {
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/**
 * The S3 variables, trimmed, and a problem for each one missing or malformed: the key pair is
 * required `requiredWith` (e.g. "PHOTO_STORE_URL"), for an account that may read, write, list
 * and delete `where` (e.g. "in the bucket"); `endpoint` is the shape S3_ENDPOINT must have
 * (each user has had its own).
 */
export function readS3Access(env: S3Env, requiredWith: string, where: string, endpointShape: RegExp, problems: string[]): S3Access {
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim() || undefined;
  const missing = [!accessKeyId && 'AWS_ACCESS_KEY_ID', !secretAccessKey && 'AWS_SECRET_ACCESS_KEY'].filter(Boolean);
  if (missing.length > 0) {
    problems.push(`${missing.join(', ')}: required with ${requiredWith} (the key pair of an account that may read, write, list and delete ${where})`);
  }
  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  if (endpoint && !endpointShape.test(endpoint)) problems.push('S3_ENDPOINT: must be a URL such as https://<account>.r2.cloudflarestorage.com');
  return { endpoint, region: env.S3_REGION?.trim() || DEFAULT_S3_REGION, accessKeyId, secretAccessKey };
}
