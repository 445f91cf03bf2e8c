import { arePlainSegments, isBucketName, readS3Access, type S3Env } from './s3-access';
import type { S3StoreSettings } from './s3-photo-store';

/**
 * PHOTO_STORE_URL read with the S3 variables (docs/operations.md, Photos in object storage).
 * Unset: the local folders under DATA_DIR. `s3://bucket/prefix`: that bucket, every key under
 * the prefix. Pure: config.ts turns the problems into its ConfigError.
 */
export type PhotoStoreSettings = { kind: 'local' } | ({ kind: 's3' } & S3StoreSettings);

export interface PhotoStoreEnv extends S3Env {
  PHOTO_STORE_URL?: string;
}

export function readPhotoStoreSettings(env: PhotoStoreEnv): { settings: PhotoStoreSettings; problems: string[] } {
  const raw = env.PHOTO_STORE_URL?.trim();
  if (!raw) return { settings: { kind: 'local' }, problems: [] };
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(raw);
  const bucket = match?.[1] ?? '';
  const segments = (match?.[2] ?? '').split('/').filter((segment) => segment !== '');
  const problems: string[] = [];
  if (!match || !isBucketName(bucket)) {
    problems.push('PHOTO_STORE_URL: must look like s3://bucket or s3://bucket/prefix, with an S3 bucket name (3-63 lower-case letters, digits, dots and hyphens)');
  } else if (!arePlainSegments(segments)) {
    problems.push('PHOTO_STORE_URL: the prefix may hold only letters, digits, dots, hyphens and underscores between slashes (no "..")');
  }
  const { endpoint, region, accessKeyId, secretAccessKey } = readS3Access(env, 'PHOTO_STORE_URL', 'in the bucket', /^https?:\/\/[^\s/]+/, problems);
  if (problems.length > 0) return { settings: { kind: 'local' }, problems };
  return {
    settings: {
      kind: 's3',
      bucket,
      prefix: segments.map((segment) => `${segment}/`).join(''),
      endpoint,
      region,
      accessKeyId: accessKeyId!,
      secretAccessKey: secretAccessKey!,
    },
    problems: [],
  };
}
