import { DIAMETER_BANDS, HEIGHT_BANDS, type DiameterBand, type HeightBand } from './questions';
import { diameterText, heightText, type EnteredSizes, type UnitSystem } from './units';

/**
 * The height and trunk bands' ranges in the given units (the bands are drawn in metric; the
 * imperial ranges are the same bounds in whole feet and inches).
 */
const HEIGHT_BAND_IMPERIAL: Record<HeightBand, string> = {
  below_one_storey: 'under 13 ft',
  about_two_storey: '13 to 26 ft',
  taller_than_house: '26 to 49 ft',
  much_taller: 'over 49 ft',
};
const DIAMETER_BAND_IMPERIAL: Record<DiameterBand, string> = {
  thinner_than_can: 'under 3 in',
  up_to_plate: '3 to 11 in',
  thicker_than_plate: '11 to 20 in',
  too_wide_to_hug: 'over 20 in',
};

export function heightBandRange(band: HeightBand, units: UnitSystem): string {
  return units === 'metric' ? HEIGHT_BANDS[band].range : HEIGHT_BAND_IMPERIAL[band];
}

export function diameterBandRange(band: DiameterBand, units: UnitSystem): string {
  return units === 'metric' ? DIAMETER_BANDS[band].range : DIAMETER_BAND_IMPERIAL[band];
}

/** The sizes the visitor chose as bands, as ranges ("8 to 15 m"); null for a size not chosen so. */
export interface ChosenBands {
  height: string | null;
  diameter: string | null;
}

/** The trunk band the visitor chose, found again by its stored middle value; null for a trunk not chosen as a band. */
export function diameterBandOf(tree: { dbhIn: number | null; sources: { diameter: string } | null }): DiameterBand | null {
  if (tree.sources?.diameter !== 'band') return null;
  return (Object.keys(DIAMETER_BANDS) as DiameterBand[]).find((band) => DIAMETER_BANDS[band].inches === tree.dbhIn) ?? null;
}

/**
 * A size chosen as a band is stored as the band's middle value (core/normalise.ts), so reading it
 * back as a figure ("11.5 m") says something the visitor never said: this finds the band again
 * by its value and gives its range, for every screen, e-mail and job item that shows it back.
 */
export function chosenBands(
  tree: { heightFt: number | null; dbhIn: number | null; sources: { height: string; diameter: string } | null },
  units: UnitSystem,
): ChosenBands {
  const heightBand =
    tree.sources?.height === 'band' ? (Object.keys(HEIGHT_BANDS) as HeightBand[]).find((band) => HEIGHT_BANDS[band].feet === tree.heightFt) : undefined;
  const diameterBand = diameterBandOf(tree);
  return {
    height: heightBand ? heightBandRange(heightBand, units) : null,
    diameter: diameterBand ? diameterBandRange(diameterBand, units) : null,
  };
}

/** What a stored analysis knows of its sizes, for showing them. */
interface ShownTree {
  height: number | null;
  diameter: number | null;
  sources: { height: string; diameter: string } | null;
  enteredSizes: EnteredSizes | null;
}

/**
 * A tree's height and trunk as every page of the surgeon's shows them: a band chosen as the band
 * ("27 to 50 cm"), never its middle as if measured ("38 cm"); a size typed, written or measured
 * as given; else the estimate's figure, the other unit in brackets. Null for a size not known.
 */
export function sizesShown(tree: ShownTree, units: UnitSystem): { height: string | null; diameter: string | null } {
  const bands = chosenBands({ heightFt: tree.height, dbhIn: tree.diameter, sources: tree.sources }, units);
  return {
    height: bands.height ?? (tree.height === null ? null : heightText(tree.height, units, tree.enteredSizes?.height)),
    diameter: bands.diameter ?? (tree.diameter === null ? null : diameterText(tree.diameter, units, tree.enteredSizes?.diameter)),
  };
}
