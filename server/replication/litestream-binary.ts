import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Where the Litestream binary is: LITESTREAM_BIN when set, else the one npm installed with the
 * platform's package (`@flydotio/litestream-linux-x64`, an optional dependency, so `npm ci`
 * brings it where it exists). Litestream 0.3.13, whose flags and metrics the rest of this
 * folder relies on.
 */
export class LitestreamMissing extends Error {}

export function litestreamBinary(env: Record<string, string | undefined> = process.env): string {
  const override = env.LITESTREAM_BIN?.trim();
  if (override) {
    if (!existsSync(override)) throw new LitestreamMissing(`LITESTREAM_BIN names ${override}, which does not exist.`);
    return override;
  }
  const packageName = `@flydotio/litestream-${process.platform}-${process.arch}`;
  try {
    const manifest = createRequire(import.meta.url).resolve(`${packageName}/package.json`);
    const binary = join(dirname(manifest), 'litestream');
    if (existsSync(binary)) return binary;
  } catch {
    // Not installed for this platform: said below.
  }
  throw new LitestreamMissing(
    `Litestream is not installed: no ${packageName} package (run npm install on this platform) and LITESTREAM_BIN is not set. ` +
      'Install Litestream 0.3.13 (litestream.io) and set LITESTREAM_BIN to its path, or unset REPLICA_URL.',
  );
}
