import type { ChosenBands } from './band-ranges';

/**
 * A tree of a quote request as the visitor and the business both name it: its kind when known,
 * else its place ("Tree 2 (kind not sure)"), then the sizes the visitor chose as bands:
 * "Oak, 8 to 15 m tall, trunk 27 to 50 cm". The visitor's acknowledgement and the job made from
 * the request use the same words, so a reply about "Tree 2" finds the same tree on either side.
 */
export function requestTreeTitle(position: number, species: string | null, bands: ChosenBands): string {
  const kind = species?.trim() ? species.trim() : `Tree ${position} (kind not sure)`;
  const sizes = [bands.height ? `${bands.height} tall` : null, bands.diameter ? `trunk ${bands.diameter}` : null].filter((size) => size !== null);
  return sizes.length > 0 ? `${kind}, ${sizes.join(', ')}` : kind;
}
