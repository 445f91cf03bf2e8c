import type { UserTreeSizes } from '../../core/normalise';
import type { SiteDetails } from '../../core/site';
import { parseDescription, type ParsedDescription } from './description-parser';
import type { Perception, VisionInput, VisionProvider } from './types';

/**
 * The local vision provider (docs/analysis.md, The pipeline), the default with no API key. No
 * bundled model can name a tree species, so it never claims to see one: species,
 * sizes and site facts come from the customer's details and description; the photo is
 * only checked for what pixels honestly show (size, exposure, blur, vegetation).
 * It is deterministic and free, so the pipeline asks it before taking any credits.
 */
export const LOCAL_MAX_CONFIDENCE = 0.5;

export function createLocalVisionProvider(): VisionProvider {
  return {
    name: 'local',
    async perceive(input: VisionInput): Promise<Perception> {
      const parsed = parseDescription(input.description);
      const factors = [
        'Local estimate: species and size come from your details and description; the photo was checked for quality only',
        ...input.photoChecks.issues,
      ];
      return {
        readFrom: 'description',
        isTree: null,
        species: parsed.species?.name ?? null,
        dbhIn: parsed.dbhIn,
        heightFt: parsed.heightFt,
        crownSpreadFt: parsed.crownSpreadFt,
        site: parsed.site,
        times: null,
        factors,
        safetyWarnings: [],
        confidence: localConfidence(input.treeDetails, parsed, input.siteDetails, input.photoChecks.issues.length),
      };
    },
  };
}

const SITE_QUESTIONS = ['targets', 'powerLines', 'access', 'dragDistance', 'stumpGrinding', 'wasteRemoval'] as const;

/**
 * What the estimate rests on, so the confidence reflects how much the user gave: 0.1 to start,
 * up to 0.1 for the species, 0.1 for each size and 0.1 for all six site answers (a share for
 * each), 0.05 off per photo problem. A species, both sizes and every site answer reach 0.5, and
 * never more: nothing was seen, only read. A rough band or a kind without a species ("conifer")
 * counts half. Below 0.35 the result asks for a site visit (safety.ts).
 */
export function localConfidence(user: UserTreeSizes | null, parsed: ParsedDescription, answers: SiteDetails, photoIssues: number): number {
  const species = user?.species?.species ?? parsed.species;
  const speciesScore = user?.species && !user.species.species ? 0.05 : species ? (species.generic ? 0.05 : 0.1) : 0;
  const sizeScore = (given: { source: string } | null | undefined, described: number | null) =>
    given ? (given.source === 'band' ? 0.05 : 0.1) : described !== null ? 0.1 : 0;
  const known = SITE_QUESTIONS.filter((q) => answers[q] !== undefined || parsed.site[q] !== undefined).length;
  const c =
    0.1 +
    speciesScore +
    sizeScore(user?.heightFt, parsed.heightFt) +
    sizeScore(user?.dbhIn, parsed.dbhIn) +
    (0.1 * known) / SITE_QUESTIONS.length -
    0.05 * photoIssues;
  return Math.round(Math.min(LOCAL_MAX_CONFIDENCE, Math.max(0.05, c)) * 100) / 100;
}
