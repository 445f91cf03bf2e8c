import { z } from 'zod';
import { JOB_LIMITS } from './jobs';
import { plainLine, plainText } from './plain-text';
import { SECTION_211_TRUNK_CM } from './protection';
import { DIAMETER_BANDS, type DiameterBand } from './questions';
import { MAX_TYPED_SIZE } from './size-bounds';
import { convertLength, sizeAsTyped, type DiameterUnit, type EnteredSize } from './units';

/**
 * The section 211 notice as the surgeon sends it (docs/product.md, Protected trees): drafted
 * from the job's estimates, then corrected tree by tree (its species, where it stands on the
 * site, the work, the trunk) and kept, so the PDF a council receives says what the surgeon
 * checked. The rules and words shared by the server (the PDF, the API) and the dashboard (the
 * editor).
 *
 * A trunk is said as it was given, never as the whole inches the estimate stores: typed or
 * written ("55 cm"), measured on the photo, or a homeowner's band ("27 to 50 cm", which is not a
 * measurement), and set against the 7.5 cm threshold at 1.5 m (TCPA 1990 s.212, SECTION_211_TRUNK_CM).
 */

export const SECTION_211_LIMITS = { trees: JOB_LIMITS.items, species: 80, location: 200, description: 200, work: JOB_LIMITS.description } as const;

export const SECTION_211_MESSAGES = {
  species: `The species must be at most ${SECTION_211_LIMITS.species} characters`,
  location: `Where the tree stands must be at most ${SECTION_211_LIMITS.location} characters`,
  description: `The description must be at most ${SECTION_211_LIMITS.description} characters`,
  work: `Describe the work in at most ${SECTION_211_LIMITS.work} characters`,
  workMissing: 'Describe the work to this tree',
  trunk: `Give the trunk in cm (up to ${MAX_TYPED_SIZE.cm}) or inches (up to ${MAX_TYPED_SIZE.in}), to one decimal at most`,
  trees: `A notice holds at most ${SECTION_211_LIMITS.trees} trees`,
  repeated: 'Each tree may appear once',
  unknownItem: 'A tree on the notice is not on this job any more: reload the page',
} as const;

const optionalLine = (max: number, message: string) =>
  z
    .string(message)
    .overwrite(plainLine)
    .max(max, message)
    .nullable()
    .optional()
    .transform((v) => (v ? v : null));

const oneDecimal = (value: number) => Math.abs(Math.round(value * 10) - value * 10) < 1e-9;
const trunkValue = (max: number) => z.number(SECTION_211_MESSAGES.trunk).positive(SECTION_211_MESSAGES.trunk).max(max, SECTION_211_MESSAGES.trunk).refine(oneDecimal, SECTION_211_MESSAGES.trunk);

/** A trunk the surgeon measured at 1.5 m, in the unit typed. */
export const noticeTrunkSchema = z.discriminatedUnion(
  'unit',
  [z.object({ value: trunkValue(MAX_TYPED_SIZE.cm), unit: z.literal('cm') }), z.object({ value: trunkValue(MAX_TYPED_SIZE.in), unit: z.literal('in') })],
  SECTION_211_MESSAGES.trunk,
);

/** One tree of the notice as the surgeon corrected it; `itemId` is the job's line it stands for. */
export const noticeTreeInputSchema = z.object({
  itemId: z.number().int().positive(),
  species: optionalLine(SECTION_211_LIMITS.species, SECTION_211_MESSAGES.species),
  /** Where it stands on the site, in words: "rear garden, 3 m from the north boundary". */
  location: optionalLine(SECTION_211_LIMITS.location, SECTION_211_MESSAGES.location),
  /** How to recognise the tree when its species is not known ("tall conifer by the gate"). */
  description: optionalLine(SECTION_211_LIMITS.description, SECTION_211_MESSAGES.description),
  work: z.string(SECTION_211_MESSAGES.workMissing).overwrite(plainText).trim().min(1, SECTION_211_MESSAGES.workMissing).max(SECTION_211_LIMITS.work, SECTION_211_MESSAGES.work),
  /** Null: the trunk as the estimate has it. */
  trunk: noticeTrunkSchema.nullable().optional().transform((v) => v ?? null),
});
export type NoticeTreeInput = z.input<typeof noticeTreeInputSchema>;
export type NoticeTreeEdit = z.output<typeof noticeTreeInputSchema>;

/** PUT /api/jobs/{id}/section-211: the notice's trees as corrected (all of them; a line left out is drafted again). */
export const section211BodySchema = z.object({
  trees: z
    .array(noticeTreeInputSchema, SECTION_211_MESSAGES.trees)
    .max(SECTION_211_LIMITS.trees, SECTION_211_MESSAGES.trees)
    .refine((trees) => new Set(trees.map((t) => t.itemId)).size === trees.length, SECTION_211_MESSAGES.repeated),
});
export type Section211Body = z.output<typeof section211BodySchema>;
export type Section211Input = z.input<typeof section211BodySchema>;

/** One tree as the notice will print it, and as the editor shows it. */
export const noticeTreeSchema = z.object({
  itemId: z.number().int(),
  /** Whether the line has an estimate behind it (its species, height and trunk drafted from it). */
  fromEstimate: z.boolean(),
  /** Whether the line prints as a tree (a line with no estimate and nothing added prints as other work). */
  printed: z.boolean(),
  species: z.string().nullable(),
  location: z.string().nullable(),
  description: z.string().nullable(),
  work: z.string(),
  /** The surgeon's trunk, as typed; null when the estimate's is used. */
  trunk: z.object({ value: z.number(), unit: z.enum(['cm', 'in']) }).nullable(),
  /** The estimate's trunk as the notice says it without the surgeon's ("27 to 50 cm, the owner's estimate"); null without one. */
  estimateTrunk: z.string().nullable(),
  height: z.string().nullable(),
  /** The lines the PDF prints for the tree: its title ("Tree 1: Oak"; "Other work: ..." for a line not printed as a tree), its trunk against the threshold. */
  title: z.string(),
  trunkLine: z.string(),
});
export type NoticeTree = z.infer<typeof noticeTreeSchema>;

export const section211Schema = z.object({
  trees: z.array(noticeTreeSchema),
  /** When the surgeon last saved the notice; null while it is as drafted. */
  savedAt: z.string().nullable(),
});
export type Section211 = z.infer<typeof section211Schema>;
export const section211ResponseSchema = z.object({ notice: section211Schema });

// ---- The trunk, as given --------------------------------------------------------------------

/** How the trunk was given: typed or written with a unit, measured on the photo, a band, a reading of the photo, or not at all. */
export type TrunkGiven =
  | { kind: 'typed'; size: EnteredSize<DiameterUnit>; by: 'surgeon' | 'estimate' }
  | { kind: 'measured'; cm: number }
  | { kind: 'band'; band: DiameterBand }
  | { kind: 'read'; inches: number; from: 'photo' | 'details' }
  | { kind: 'none' };

const cm1 = (value: number) => Math.round(value * 10) / 10;
const over = `over the ${SECTION_211_TRUNK_CM} cm threshold, so notice is needed`;
const under = `under ${SECTION_211_TRUNK_CM} cm, so this tree needs no notice`;
const against = (cm: number) => (cm >= SECTION_211_TRUNK_CM ? over : under);

/** A homeowner's band against the threshold: all of it over, all under, or across it (then it must be measured). */
function bandAgainst(band: DiameterBand): string {
  const { from, to } = DIAMETER_BANDS[band].cm;
  if (from !== null && from >= SECTION_211_TRUNK_CM) return `the whole band is ${over}`;
  if (to !== null && to <= SECTION_211_TRUNK_CM) return `the whole band is ${under}`;
  return `the band spans the ${SECTION_211_TRUNK_CM} cm threshold: measure the trunk at 1.5 m to know whether notice is needed`;
}

/** The trunk in words, without the threshold: "55 cm", "20 in (50.8 cm)", "27 to 50 cm (the owner's estimate, not measured)". */
export function trunkWords(given: TrunkGiven): string | null {
  switch (given.kind) {
    case 'typed': {
      const typed = sizeAsTyped(given.size);
      return given.size.unit === 'in' ? `${typed} (${cm1(convertLength(given.size.value, 'in', 'cm'))} cm)` : typed;
    }
    case 'measured':
      return `${Math.round(given.cm)} cm (measured on the photo)`;
    case 'band':
      return `${DIAMETER_BANDS[given.band].range} (the owner's estimate, not measured)`;
    case 'read':
      return `about ${Math.round(convertLength(given.inches, 'in', 'cm'))} cm (${given.from === 'photo' ? 'estimated from the photo' : 'from the project details'}, not measured)`;
    case 'none':
      return null;
  }
}

/** The trunk set against the 7.5 cm threshold at 1.5 m, as one sentence of the notice. */
export function trunkLine(given: TrunkGiven): string {
  const words = trunkWords(given);
  switch (given.kind) {
    case 'typed':
      // The surgeon's own measurement is taken where the law says; a typed estimate is as given.
      return `Trunk ${words} across${given.by === 'surgeon' ? ' at 1.5 m' : ''}: ${against(convertLength(given.size.value, given.size.unit, 'cm'))}`;
    case 'measured':
      return `Trunk ${words} across: ${against(given.cm)}`;
    case 'band':
      return `Trunk ${words} across: ${bandAgainst(given.band)}`;
    case 'read':
      return `Trunk ${words} across: ${against(convertLength(given.inches, 'in', 'cm'))}`;
    case 'none':
      return `Trunk not measured: notice is needed from ${SECTION_211_TRUNK_CM} cm across at 1.5 m`;
  }
}

/** The tree's heading on the notice: its species, or that none was identified and how to know it. */
export function noticeTreeTitle(position: number, species: string | null, description: string | null): string {
  if (species) return `Tree ${position}: ${species}`;
  return `Tree ${position}: species not identified: ${description ?? 'describe the tree here before sending'}`;
}
