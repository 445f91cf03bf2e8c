import { parseDescription } from './description-parser';
import type { Perception, VisionInput, VisionProvider } from './types';

/**
 * The local vision provider (DECISIONS, Analysis), the default with no API key. No
 * bundled model can name a tree species, so it never claims to see one: species,
 * sizes and site facts come from the customer's description; the photo is only
 * checked for what pixels honestly show (size, exposure, blur, vegetation).
 */
export const LOCAL_MAX_CONFIDENCE = 0.5;

export function createLocalVisionProvider(): VisionProvider {
  return {
    name: 'local',
    async perceive(input: VisionInput): Promise<Perception> {
      const parsed = parseDescription(input.description);
      const factors = [
        'Local estimate: species and size come from your description and answers; the photo was checked for quality only',
        ...input.photoChecks.issues,
      ];
      return {
        species: parsed.species?.name ?? null,
        dbhIn: parsed.dbhIn,
        heightFt: parsed.heightFt,
        crownSpreadFt: null,
        site: parsed.site,
        times: null,
        factors,
        safetyWarnings: [],
        confidence: localConfidence(parsed, input.photoChecks.issues.length),
      };
    },
  };
}

/**
 * What the estimate rests on: each stated fact adds confidence, each photo problem takes
 * some away, and it never exceeds 0.5 because nothing was seen, only read.
 */
function localConfidence(parsed: ReturnType<typeof parseDescription>, photoIssues: number): number {
  let c = 0.2;
  if (parsed.species) c += 0.1;
  if (parsed.dbhIn !== null) c += 0.1;
  if (parsed.heightFt !== null) c += 0.1;
  c -= 0.05 * photoIssues;
  return Math.round(Math.min(LOCAL_MAX_CONFIDENCE, Math.max(0.05, c)) * 100) / 100;
}
