import type { Config } from '../config';
import { planningData } from './planning-data';
import { postcodesIo } from './postcodes-io';
import type { ProtectionLookups } from './types';

const made = new WeakMap<Config, ProtectionLookups | null>();

/**
 * The lookups' clients for this install, made once per config (CONVENTIONS 2: chosen once from
 * config), or null when lookups are off (PROTECTION_LOOKUPS=off, or a test that gave no fake).
 * Kept beside the config rather than in AppDeps: nothing else needs them, and every caller that
 * has the config (a route, the hourly housekeeping) gets the same pair.
 */
export function protectionLookups(config: Config): ProtectionLookups | null {
  if (!made.has(config)) {
    const { lookups, postcodeUrl, planningUrl } = config.protection;
    made.set(config, lookups ? { postcodes: postcodesIo(postcodeUrl), planning: planningData(planningUrl) } : null);
  }
  return made.get(config)!;
}
