/**
 * The two outside services a protected-trees lookup asks (CONVENTIONS 2): a postcode's centre and
 * council, and the planning data at that point. Each has a real client over HTTP
 * (postcodes-io.ts, planning-data.ts) pointed at POSTCODE_LOOKUP_URL and PLANNING_DATA_URL; the
 * tests point them at one loopback fake speaking both (testing/fake-planning.ts). With lookups
 * off there is no client at all and every job's lookup stays "not checked".
 */

/** The postcode's centre and its district council, as postcodes.io names it. */
export interface PostcodeCentre {
  postcode: string;
  latitude: number;
  longitude: number;
  /** "Bristol, City of": the fallback council name when the planning data names none. */
  district: string | null;
}

/** The postcode service does not know the postcode (a 404): asked again later, since new ones appear. */
export class UnknownPostcode extends Error {}

/** An entity of the planning data as served (only the fields we read). */
export interface PlanningEntity {
  name?: unknown;
  reference?: unknown;
  dataset?: unknown;
  organisationEntity: string | null;
}

export interface PostcodeLookup {
  readonly source: string;
  centre(postcode: string, signal: AbortSignal): Promise<PostcodeCentre>;
}

export interface PlanningData {
  readonly source: string;
  /** The conservation areas, TPO zones, protected trees and local planning authority at a point. */
  entitiesAt(latitude: number, longitude: number, signal: AbortSignal): Promise<PlanningEntity[]>;
  /** An organisation (a council) by its entity number: its name and website. */
  organisation(entity: string, signal: AbortSignal): Promise<{ name: unknown; website: unknown } | null>;
}

export interface ProtectionLookups {
  postcodes: PostcodeLookup;
  planning: PlanningData;
}
