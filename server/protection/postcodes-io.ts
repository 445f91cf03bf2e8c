import { isRecord } from '../../core/is-record';
import { getJson, ServiceAnswer } from './fetch-json';
import { UnknownPostcode, type PostcodeCentre, type PostcodeLookup } from './types';

/**
 * postcodes.io's `GET /postcodes/{postcode}` (https://postcodes.io/docs, "Postcode Lookup"):
 * 200 `{ status: 200, result: { postcode, latitude, longitude, admin_district, codes: {
 * admin_district, ... }, ... } }`; 404 `{ status: 404, error: "Postcode not found" }` or
 * `"Invalid postcode"`. ONS data under the Open Government Licence. Only the postcode is sent.
 */
export function postcodesIo(baseUrl: string): PostcodeLookup {
  return {
    source: baseUrl,
    async centre(postcode: string, signal: AbortSignal): Promise<PostcodeCentre> {
      const { status, body } = await getJson(`${baseUrl}/postcodes/${encodeURIComponent(postcode)}`, signal);
      if (status === 404) throw new UnknownPostcode(isRecord(body) && typeof body.error === 'string' ? body.error : 'Postcode not found');
      const result = isRecord(body) ? body.result : undefined;
      if (status !== 200 || !isRecord(result)) throw new ServiceAnswer(status, `postcode lookup answered ${status}`);
      const { latitude, longitude } = result;
      // Some postcodes (new, or with no grid reference) come back with null coordinates.
      if (typeof latitude !== 'number' || typeof longitude !== 'number' || !Number.isFinite(latitude) || !Number.isFinite(longitude)) {
        throw new UnknownPostcode('Postcode has no coordinates');
      }
      return {
        postcode: typeof result.postcode === 'string' ? result.postcode : postcode,
        latitude,
        longitude,
        district: typeof result.admin_district === 'string' ? result.admin_district : null,
      };
    },
  };
}
