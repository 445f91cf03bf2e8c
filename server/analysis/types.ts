import type { UserTreeSizes } from '../../core/normalise';
import type { SiteDetails } from '../../core/site';
import type { TimeRange } from '../../core/time-model';
import type { PhotoChecks } from '../images/normalise';

/**
 * The contracts between the analysis steps (one module a step; docs/analysis.md, The pipeline).
 * upload -> image (server/images/normalise.ts) -> perception (VisionProvider) -> estimate -> safety -> calibrate -> store.
 */

export interface VisionInput {
  /** JPEG bytes (NormalisedImage.forModel). */
  image: Buffer;
  description?: string;
  siteDetails: SiteDetails;
  /** What the user said of the tree (species, sizes typed, chosen or measured), already normalised. */
  treeDetails: UserTreeSizes | null;
  /** The user's or business's custom instructions: data for the prompt, never able to change the output schema. */
  instructions?: string;
  photoChecks: PhotoChecks;
}

/**
 * What a vision provider perceived, normalised (core/normalise.ts). Null means "could not tell".
 * Species and sizes are the provider's own reading: a model's from the photo, the local
 * provider's from the description; the user's tree details are applied after, over them.
 */
export interface Perception {
  /** Where species and sizes were read: by a model from the photo, or from the customer's words. */
  readFrom: 'model' | 'description';
  /** A model's verdict on whether the photo shows a tree; null when no model looked. */
  isTree: boolean | null;
  species: string | null;
  dbhIn: number | null;
  heightFt: number | null;
  crownSpreadFt: number | null;
  /** Site facts found in the description or the photo (explicit site answers win over these). */
  site: SiteDetails;
  /** The provider's own time estimate, bounded later by the time model; null to use the model's. */
  times: { cutting: TimeRange; prep: TimeRange; cleanup: TimeRange } | null;
  factors: string[];
  safetyWarnings: string[];
  /** 0..1; the local provider never reports more than 0.5. */
  confidence: number;
}

export interface VisionProvider {
  readonly name: 'local' | 'openai';
  perceive(input: VisionInput, signal?: AbortSignal): Promise<Perception>;
}

/** Thrown by a provider when the model failed, answered garbage, or timed out; the credits are refunded. */
export class VisionError extends Error {
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'VisionError';
  }
}

/** Whether the configured provider reads a tree's size and species from the photo (the local one cannot). */
export function readsPhotos(vision: VisionProvider): boolean {
  return vision.name === 'openai';
}
