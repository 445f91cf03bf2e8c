import { DomainError } from '../../core/errors';
import { parsePostcode } from '../../core/postcode';
import type { AppDeps } from '../deps';
import type { LocatedHospital } from '../settings/settings';
import { siteLocation } from '../weather/site-location';

type LocateDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

const refused = (message: string, index: number) => new DomainError('VALIDATION_ERROR', message, { details: { [`hospitals.${index}.postcode`]: [message] } });

/**
 * The team's hospitals as saved (docs/product.md, The crew's day: hospitals): each postcode
 * normalised and located once, now, through the postcode service the product already asks
 * (server/weather/site-location.ts). A hospital already on the list with the same postcode keeps
 * its place without asking again. A postcode that is not one, or that cannot be located (unknown,
 * or the service not answering), refuses the whole list with a 400 naming it: a hospital without a
 * position could never be the nearest, and a list that silently skips one misleads the plan.
 */
export async function locateHospitals(deps: LocateDeps, list: readonly { name: string; postcode: string }[], kept: readonly LocatedHospital[]): Promise<LocatedHospital[]> {
  const located: LocatedHospital[] = [];
  for (const [index, hospital] of list.entries()) {
    const postcode = parsePostcode(hospital.postcode)?.postcode;
    if (!postcode) throw refused(`${hospital.postcode} (${hospital.name}) is not a UK postcode.`, index);
    const known = kept.find((k) => k.postcode === postcode);
    const place = known ?? (await siteLocation(deps, postcode));
    if (!place) throw refused(`The postcode ${postcode} (${hospital.name}) could not be located: check it, or try again if the postcode service is not answering.`, index);
    located.push({ name: hospital.name, postcode, latitude: place.latitude, longitude: place.longitude });
  }
  return located;
}
