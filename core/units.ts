/**
 * The units a user reads sizes in: metric (metres and centimetres) or imperial (feet and
 * inches). Remembered per account and per business; metric by default, as UK tree surgeons and
 * homeowners measure. The API and the database keep SPEC's feet and inches whatever the choice.
 */
export const UNIT_SYSTEMS = ['metric', 'imperial'] as const;
export type UnitSystem = (typeof UNIT_SYSTEMS)[number];
export const DEFAULT_UNIT_SYSTEM: UnitSystem = 'metric';
