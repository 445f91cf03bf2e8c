import { DIAMETER_BANDS, HEIGHT_BANDS, type DiameterBand, type HeightBand } from './questions';
import type { UnitSystem } from './units';

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
