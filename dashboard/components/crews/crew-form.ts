import { crewCreateSchema, DEFAULT_DAY_HOURS, MEWP_WIND_LIMIT_MS, type Crew, type CrewCreateInput, type EquipmentKind } from '../../../core/crews';
import { msToMph, SCHEDULE_SETTINGS_LIMITS, SCHEDULE_SETTINGS_MESSAGES } from '../../../core/settings';

/*
 * Settings → Crews' form (docs/product.md, Schedule): what the fields hold, the body they make,
 * and the checks' messages on the fields they name, the server's own (core/crews.ts).
 */

export const EQUIPMENT_KIND_LABELS: Record<EquipmentKind, string> = {
  mewp: 'MEWP',
  chipper: 'Chipper',
  stump_grinder: 'Stump grinder',
  crane: 'Crane',
  other: 'Other',
};

/** Colours by name, so a crew's colour is said in words as well as shown. */
export const CREW_COLOURS: readonly { value: string; label: string }[] = [
  { value: '#2f7d32', label: 'Green' },
  { value: '#1d4ed8', label: 'Blue' },
  { value: '#b91c1c', label: 'Red' },
  { value: '#c2410c', label: 'Orange' },
  { value: '#7e22ce', label: 'Purple' },
  { value: '#0f766e', label: 'Teal' },
  { value: '#854d0e', label: 'Brown' },
  { value: '#4b5563', label: 'Grey' },
];

export function colourLabel(colour: string | null): string {
  if (colour === null) return 'No colour';
  return CREW_COLOURS.find((c) => c.value === colour.toLowerCase())?.label ?? `Colour ${colour}`;
}

export interface KitDraft {
  /** A key for the list's rows only. */
  key: number;
  name: string;
  kind: EquipmentKind;
  /** m/s as typed; "" for the kind's own (a MEWP's 12.5) or none. */
  windLimit: string;
}

export interface CrewDraft {
  name: string;
  /** "" for no colour. */
  colour: string;
  memberIds: number[];
  dayHours: string;
  kit: KitDraft[];
}

let nextKey = 1;
export function newKit(): KitDraft {
  return { key: nextKey++, name: '', kind: 'other', windLimit: '' };
}

export function crewDraftOf(crew: Crew | null): CrewDraft {
  if (!crew) return { name: '', colour: '', memberIds: [], dayHours: String(DEFAULT_DAY_HOURS), kit: [] };
  return {
    name: crew.name,
    colour: crew.colour ?? '',
    memberIds: crew.members.map((m) => m.id),
    dayHours: String(crew.dayHours),
    // A MEWP whose limit is the default 12.5 is shown as left to the default.
    kit: crew.equipment.map((item) => ({
      key: nextKey++,
      name: item.name,
      kind: item.kind,
      windLimit: item.windLimitMs === null || (item.kind === 'mewp' && item.windLimitMs === MEWP_WIND_LIMIT_MS) ? '' : String(item.windLimitMs),
    })),
  };
}

/** A number as typed, or the text itself so the server's check names what is wrong with it. */
function numberOf(text: string): number | string {
  const trimmed = text.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
}

export function crewBodyOf(draft: CrewDraft): CrewCreateInput {
  return {
    name: draft.name,
    colour: draft.colour === '' ? null : draft.colour,
    memberIds: draft.memberIds,
    dayHours: numberOf(draft.dayHours) as number,
    equipment: draft.kit.map((item) => ({
      name: item.name,
      kind: item.kind,
      ...(item.windLimit.trim() === '' ? {} : { windLimitMs: numberOf(item.windLimit) as number }),
    })),
  };
}

/** Each field's first message, by its path ("name", "memberIds", "equipment.0.windLimitMs"). */
export type CrewErrors = Record<string, string>;

export function crewErrorsOf(issues: { path: PropertyKey[]; message: string }[]): CrewErrors {
  const errors: CrewErrors = {};
  for (const issue of issues) {
    // An error inside the members' list is the list's.
    const key = issue.path[0] === 'memberIds' ? 'memberIds' : issue.path.map(String).join('.');
    errors[key] ??= issue.message;
  }
  return errors;
}

/** The form checked as the server checks it: the body to send, or the messages by field. */
export function checkCrew(draft: CrewDraft): { body: CrewCreateInput } | { errors: CrewErrors } {
  const body = crewBodyOf(draft);
  const checked = crewCreateSchema.safeParse(body);
  return checked.success ? { body } : { errors: crewErrorsOf(checked.error.issues) };
}

/** "12.5 m/s, 28 mph" (said inside a kit's brackets, so none of its own). */
export function windWords(ms: number): string {
  return `${ms} m/s, ${msToMph(ms)} mph`;
}

/** "an 8-hour day", "a 7.5-hour day": the article as the number is said. */
export function hourDayWords(hours: number): string {
  return `${/^(8|11|18)(\.|$)/.test(String(hours)) ? 'an' : 'a'} ${hours}-hour day`;
}

/** What a kit row's wind limit field says under it. */
export function windHint(kind: EquipmentKind): string {
  return kind === 'mewp' ? `${MEWP_WIND_LIMIT_MS} m/s unless set` : 'Optional: the wind it may not work above';
}

/** A crew's kit in words: "Niftylift HR21 (MEWP, wind limit 12.5 m/s, 28 mph)". */
export function kitWords(item: Crew['equipment'][number]): string {
  return `${item.name} (${EQUIPMENT_KIND_LABELS[item.kind]}${item.windLimitMs !== null ? `, wind limit ${windWords(item.windLimitMs)}` : ''})`;
}

/** The climbing wind limit as typed: a number from 1 to 40 m/s, else the message. */
export function climbingLimitOf(text: string): number | string {
  const value = Number(text.trim());
  const { min, max } = SCHEDULE_SETTINGS_LIMITS.windMs;
  return text.trim() !== '' && Number.isFinite(value) && value >= min && value <= max ? Math.round(value * 10) / 10 : SCHEDULE_SETTINGS_MESSAGES.climbingWindLimit;
}
