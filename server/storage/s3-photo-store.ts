import type { S3Client } from '@aws-sdk/client-s3';
import { isStoreKey, PhotoStoreError, type PhotoStore } from './photo-store';

/** PHOTO_STORE_URL's bucket and prefix with the S3 variables (server/storage/store-url.ts). */
export interface S3StoreSettings {
  bucket: string;
  /** '' or a folder path ending in '/', e.g. 'trees/'. */
  prefix: string;
  /** S3_ENDPOINT, for S3-compatible services (R2, B2, MinIO); unset for AWS itself. */
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * A dead or slow store must not hold a request (or an image slot's worth of waiting) for ever:
 * a connection gets 3 s, a request 15 s, and each operation 20 s in all, retries included
 * (the SDK's standard strategy, at most 3 attempts). An analysis that cannot save its photo in
 * that time fails and is refunded (analysis/pipeline.ts).
 */
const CONNECT_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 15_000;
const OPERATION_TIMEOUT_MS = 20_000;
const MAX_ATTEMPTS = 3;

/** The SDK is loaded on first use, as openai and stripe are: an install without S3 never pays its start-up. */
type S3Sdk = typeof import('@aws-sdk/client-s3');
let loadedSdk: Promise<S3Sdk> | undefined;
const loadSdk = () => (loadedSdk ??= import('@aws-sdk/client-s3'));

function createClient(sdk: S3Sdk, settings: S3StoreSettings): S3Client {
  return new sdk.S3Client({
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Services other than AWS (MinIO, s3rver, most self-hosted ones) address buckets by path.
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    maxAttempts: MAX_ATTEMPTS,
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
    // Checksums only where S3 requires them: the SDK's newer default (a CRC32 on every upload)
    // is refused by several S3-compatible services, and a photo's integrity is TLS's job here.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function createS3PhotoStore(settings: S3StoreSettings): PhotoStore {
  let connected: Promise<{ sdk: S3Sdk; client: S3Client }> | undefined;
  const connect = () => (connected ??= loadSdk().then((sdk) => ({ sdk, client: createClient(sdk, settings) })));
  const objectKey = (key: string) => settings.prefix + key;
  const bounded = () => ({ abortSignal: AbortSignal.timeout(OPERATION_TIMEOUT_MS) });

  return {
    kind: 's3',
    location: `s3://${settings.bucket}/${settings.prefix}`,
    async put(key, bytes) {
      if (!isStoreKey(key)) throw new PhotoStoreError(new Error(`refused a key that is not ours: ${JSON.stringify(key.slice(0, 80))}`));
      const contentType = key.endsWith('.png') ? 'image/png' : 'image/jpeg';
      try {
        const { sdk, client } = await connect();
        await client.send(new sdk.PutObjectCommand({ Bucket: settings.bucket, Key: objectKey(key), Body: bytes, ContentType: contentType }), bounded());
      } catch (err) {
        throw new PhotoStoreError(err);
      }
    },
    async get(key) {
      if (!isStoreKey(key)) return null;
      try {
        const { sdk, client } = await connect();
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }), bounded());
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : null;
      } catch (err) {
        if (isMissing(err)) return null;
        throw new PhotoStoreError(err);
      }
    },
    async delete(key) {
      if (!isStoreKey(key)) return;
      try {
        const { sdk, client } = await connect();
        await client.send(new sdk.DeleteObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }), bounded());
      } catch (err) {
        if (!isMissing(err)) throw new PhotoStoreError(err);
      }
    },
    async list(folder) {
      const keys: string[] = [];
      let token: string | undefined;
      try {
        const { sdk, client } = await connect();
        do {
          const page = await client.send(
            new sdk.ListObjectsV2Command({ Bucket: settings.bucket, Prefix: objectKey(`${folder}/`), ContinuationToken: token }),
            bounded(),
          );
          for (const item of page.Contents ?? []) {
            const key = item.Key?.slice(settings.prefix.length);
            if (key && isStoreKey(key)) keys.push(key);
          }
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
      } catch (err) {
        throw new PhotoStoreError(err);
      }
      return keys.sort();
    },
  };
}

/** S3's answer for an object that is not there; a missing bucket is a misconfiguration, not a missing photo. */
function isMissing(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { name, $metadata } = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (name === 'NoSuchBucket') return false;
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}
