import { z } from 'zod';
import { TEAM_ROLES } from './team';

/*
 * Crews and kit (docs/product.md, Schedule): the request bodies of /api/crews and their answers;
 * the schedule's settings are core/settings.ts's. A crew's day is held in whole minutes
 * (crews.day_minutes), since everything the schedule adds up against it (estimated crew minutes,
 * the members' capacity) is minutes; the API speaks hours.
 */

export const EQUIPMENT_KINDS = ['mewp', 'chipper', 'stump_grinder', 'crane', 'other'] as const;
export type EquipmentKind = (typeof EQUIPMENT_KINDS)[number];

/**
 * A MEWP's wind limit when the crew gives none: 12.5 m/s (28 mph, Beaufort 6), the maximum
 * wind speed BS EN 280 (Mobile elevating work platforms: design) has outdoor platforms rated
 * for, and so the figure on most manufacturers' plates. Other kit has no common figure: its
 * limit is the one the crew gives, or none.
 */
export const MEWP_WIND_LIMIT_MS = 12.5;

export const DEFAULT_DAY_HOURS = 8;

export const CREW_LIMITS = { name: 60, members: 50, equipment: 20, equipmentName: 60, dayHours: { min: 1, max: 16 }, windMs: { min: 1, max: 40 } } as const;

export const CREW_MESSAGES = {
  name: `Give the crew a name of at most ${CREW_LIMITS.name} characters`,
  colour: 'Give the colour as #rrggbb, for example #2f7d32',
  members: 'Choose at least one person for the crew',
  tooManyMembers: `A crew can have at most ${CREW_LIMITS.members} people`,
  memberId: 'Choose people from the team list',
  notInTeam: 'Choose people who are in your team: one of them is not, or has been taken out of it',
  dayHours: `A crew's day is ${CREW_LIMITS.dayHours.min} to ${CREW_LIMITS.dayHours.max} hours, in quarter hours (for example 7.5)`,
  equipment: `A crew can have at most ${CREW_LIMITS.equipment} pieces of kit`,
  equipmentName: `Give each piece of kit a name of at most ${CREW_LIMITS.equipmentName} characters`,
  equipmentKind: "Choose the kit's kind: mewp, chipper, stump_grinder, crane or other",
  windLimit: `A wind limit is ${CREW_LIMITS.windMs.min} to ${CREW_LIMITS.windMs.max} m/s`,
  nothingToChange: 'Send name, colour, memberIds, dayHours or equipment to change',
  notFound: 'That crew is not in your team.',
  futureBookings: (count: number) =>
    `This crew has ${count} booking${count === 1 ? '' : 's'} still to come. Move ${count === 1 ? 'it' : 'them'} to another crew before deleting the crew.`,
} as const;

/** A wind speed in m/s held to one decimal, as forecasts give it. */
export const windMsSchema = (message: string) =>
  z
    .number(message)
    .min(CREW_LIMITS.windMs.min, message)
    .max(CREW_LIMITS.windMs.max, message)
    .transform((v) => Math.round(v * 10) / 10);

const crewName = z.string(CREW_MESSAGES.name).trim().min(1, CREW_MESSAGES.name).max(CREW_LIMITS.name, CREW_MESSAGES.name);
const colour = z
  .string(CREW_MESSAGES.colour)
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, CREW_MESSAGES.colour)
  .transform((v) => v.toLowerCase())
  .nullable();
/** Team member ids (team_members.id), each once: a repeat is the same person, not a second place. */
const memberIds = z
  .array(z.number(CREW_MESSAGES.memberId).int(CREW_MESSAGES.memberId).positive(CREW_MESSAGES.memberId), CREW_MESSAGES.members)
  .min(1, CREW_MESSAGES.members)
  .max(CREW_LIMITS.members, CREW_MESSAGES.tooManyMembers)
  .transform((ids) => [...new Set(ids)]);
const dayHours = z
  .number(CREW_MESSAGES.dayHours)
  .min(CREW_LIMITS.dayHours.min, CREW_MESSAGES.dayHours)
  .max(CREW_LIMITS.dayHours.max, CREW_MESSAGES.dayHours)
  .refine((v) => Number.isInteger(v * 4), CREW_MESSAGES.dayHours);

export const equipmentSchema = z.object({
  name: z.string(CREW_MESSAGES.equipmentName).trim().min(1, CREW_MESSAGES.equipmentName).max(CREW_LIMITS.equipmentName, CREW_MESSAGES.equipmentName),
  kind: z.enum(EQUIPMENT_KINDS, { error: CREW_MESSAGES.equipmentKind }),
  windLimitMs: windMsSchema(CREW_MESSAGES.windLimit).optional(),
});
/** A piece of kit as the crew gave it (crews.equipment): a limit left out follows the defaults. */
export type StoredEquipment = z.output<typeof equipmentSchema>;
const equipment = z.array(equipmentSchema, CREW_MESSAGES.equipment).max(CREW_LIMITS.equipment, CREW_MESSAGES.equipment);

/** POST /api/crews */
export const crewCreateSchema = z.object({
  name: crewName,
  colour: colour.optional(),
  memberIds,
  dayHours: dayHours.optional(),
  equipment: equipment.optional(),
});
export type CrewCreateInput = z.input<typeof crewCreateSchema>;
export type CrewCreate = z.output<typeof crewCreateSchema>;

/** PATCH /api/crews/{id}: any of the same fields; `colour: null` takes the colour off; `equipment` is the whole list. */
export const crewPatchSchema = crewCreateSchema.partial().refine((v) => Object.values(v).some((part) => part !== undefined), { message: CREW_MESSAGES.nothingToChange });
export type CrewPatchInput = z.input<typeof crewPatchSchema>;
export type CrewPatch = z.output<typeof crewPatchSchema>;

/** The wind limit a piece of kit is held to: its own, else a MEWP's 12.5 m/s, else none. */
export function effectiveWindLimitMs(item: StoredEquipment): number | null {
  return item.windLimitMs ?? (item.kind === 'mewp' ? MEWP_WIND_LIMIT_MS : null);
}

export const crewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** #rrggbb, or null for the board's own colour. */
  colour: z.string().nullable(),
  dayHours: z.number(),
  equipment: z.array(z.object({ name: z.string(), kind: z.enum(EQUIPMENT_KINDS), windLimitMs: z.number().nullable() })),
  /** The crew's people who are still in the team, by name. */
  members: z.array(z.object({ id: z.number().int(), name: z.string(), role: z.enum(TEAM_ROLES) })),
  /** What the crew can do in a day: its members × its day, in minutes. */
  capacityMinutes: z.number().int(),
});
export type Crew = z.infer<typeof crewSchema>;

export const crewResponseSchema = z.object({ crew: crewSchema });
/** GET /api/crews: the crews, and the team's active people a crew may be made of. */
export const crewListResponseSchema = z.object({ crews: z.array(crewSchema), people: crewSchema.shape.members });
