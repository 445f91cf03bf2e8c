import type { S3StoreSettings } from './s3-photo-store';

/**
 * PHOTO_STORE_URL read with the S3 variables (docs/operations.md, Photos in object storage).
 * Unset: the local folders under DATA_DIR. `s3://bucket/prefix`: that bucket, every key under
 * the prefix. Pure: config.ts turns the problems into its ConfigError.
 */
export type PhotoStoreSettings = { kind: 'local' } | ({ kind: 's3' } & S3StoreSettings);

/**
 * us-east-1 when S3_REGION is unset: AWS's own default, what MinIO and s3rver sign with, and a
 * name Cloudflare R2 takes as its "auto" (R2's S3 API docs). Set S3_REGION for any other AWS region.
 */
export const DEFAULT_S3_REGION = 'us-east-1';

/** S3's bucket naming rules (lower-case letters, digits, dots and hyphens, 3-63 long). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** A prefix of plain path segments: no `..`, no empty segment, nothing a key could escape by. */
const PREFIX_SEGMENT = /^[A-Za-z0-9._-]{1,100}$/;

export interface PhotoStoreEnv {
  PHOTO_STORE_URL?: string;
  S3_ENDPOINT?: string;
  S3_REGION?: string;
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
}

export function readPhotoStoreSettings(env: PhotoStoreEnv): { settings: PhotoStoreSettings; problems: string[] } {
  const raw = env.PHOTO_STORE_URL?.trim();
  if (!raw) return { settings: { kind: 'local' }, problems: [] };
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(raw);
  const bucket = match?.[1] ?? '';
  const segments = (match?.[2] ?? '').split('/').filter((segment) => segment !== '');
  const problems: string[] = [];
  if (!match || !BUCKET.test(bucket)) {
    problems.push('PHOTO_STORE_URL: must look like s3://bucket or s3://bucket/prefix, with an S3 bucket name (3-63 lower-case letters, digits, dots and hyphens)');
  } else if (segments.some((segment) => !PREFIX_SEGMENT.test(segment) || segment === '.' || segment === '..')) {
    problems.push('PHOTO_STORE_URL: the prefix may hold only letters, digits, dots, hyphens and underscores between slashes (no "..")');
  }
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  const missing = [!accessKeyId && 'AWS_ACCESS_KEY_ID', !secretAccessKey && 'AWS_SECRET_ACCESS_KEY'].filter(Boolean);
  if (missing.length > 0) problems.push(`${missing.join(', ')}: required with PHOTO_STORE_URL (the key pair of an account that may read, write, list and delete in the bucket)`);
  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  if (endpoint && !/^https?:\/\/[^\s/]+/.test(endpoint)) problems.push('S3_ENDPOINT: must be a URL such as https://<account>.r2.cloudflarestorage.com');
  if (problems.length > 0) return { settings: { kind: 'local' }, problems };
  return {
    settings: {
      kind: 's3',
      bucket,
      prefix: segments.map((segment) => `${segment}/`).join(''),
      endpoint,
      region: env.S3_REGION?.trim() || DEFAULT_S3_REGION,
      accessKeyId: accessKeyId!,
      secretAccessKey: secretAccessKey!,
    },
    problems: [],
  };
}
