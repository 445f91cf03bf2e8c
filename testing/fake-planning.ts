import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One loopback server speaking both outside services of the protected-trees lookup, in their real
 * shapes (server/protection/postcodes-io.ts and planning-data.ts say where each came from):
 * postcodes.io's `GET /postcodes/{postcode}` and planning.data.gov.uk's `GET /entity.json` (a point)
 * and `GET /entity/{entity}.json` (a council). Point POSTCODE_LOOKUP_URL and PLANNING_DATA_URL at
 * `url`. The places are the fake's own (names real, entity numbers and references made up):
 * - BS8 4AA: the Clifton conservation area, Bristol City Council;
 * - GL50 1QA: a Tree Preservation Order zone, Cheltenham Borough Council;
 * - LS6 2AB: nothing but the council, Leeds City Council;
 * - LS1 3EX, LS9 7TF and BS2 8HW: three A&E departments (Leeds General Infirmary, St James's, the
 *   Bristol Royal Infirmary), for the site check's nearest hospital; no planning data there;
 * - any other postcode: 404 "Postcode not found".
 * `setMode` makes a service slow (holds the answer past any client's timeout) or down (500);
 * `hold` keeps every answer back until `release`, so a test can have many askers waiting at once.
 */

export type FakeServiceMode = 'ok' | 'slow' | 'down';

interface Place {
  latitude: number;
  longitude: number;
  district: string;
  districtCode: string;
  entities: Record<string, unknown>[];
}

const entity = (entityNumber: number, dataset: string, name: string, reference: string, organisation: string) => ({
  'entry-date': '2024-01-15',
  'start-date': '',
  'end-date': '',
  entity: entityNumber,
  name,
  dataset,
  typology: 'geography',
  reference,
  prefix: dataset,
  'organisation-entity': organisation,
});

export const FAKE_PLACES: Record<string, Place> = {
  'BS8 4AA': {
    latitude: 51.455913,
    longitude: -2.620437,
    district: 'Bristol, City of',
    districtCode: 'E06000023',
    entities: [entity(44000101, 'conservation-area', 'Clifton', 'CA-CLIFTON', '901'), entity(42000101, 'local-planning-authority', 'Bristol LPA', 'E60000101', '901')],
  },
  'GL50 1QA': {
    latitude: 51.894671,
    longitude: -2.083201,
    district: 'Cheltenham',
    districtCode: 'E07000078',
    entities: [entity(19100101, 'tree-preservation-zone', 'Montpellier Walk', 'TPO-0421', '902'), entity(42000102, 'local-planning-authority', 'Cheltenham LPA', 'E60000102', '902')],
  },
  'LS6 2AB': {
    latitude: 53.819012,
    longitude: -1.571223,
    district: 'Leeds',
    districtCode: 'E08000035',
    entities: [entity(42000103, 'local-planning-authority', 'Leeds LPA', 'E60000103', '903')],
  },
  'LS1 3EX': { latitude: 53.8016, longitude: -1.5522, district: 'Leeds', districtCode: 'E08000035', entities: [] },
  'LS9 7TF': { latitude: 53.8076, longitude: -1.5207, district: 'Leeds', districtCode: 'E08000035', entities: [] },
  'BS2 8HW': { latitude: 51.4584, longitude: -2.5965, district: 'Bristol, City of', districtCode: 'E06000023', entities: [] },
};

const COUNCILS: Record<string, { name: string; website: string }> = {
  '901': { name: 'Bristol City Council', website: 'https://www.bristol.gov.uk' },
  '902': { name: 'Cheltenham Borough Council', website: 'https://www.cheltenham.gov.uk' },
  '903': { name: 'Leeds City Council', website: 'https://www.leeds.gov.uk' },
};

export interface FakePlanning {
  /** The base URL of both services. */
  url: string;
  /** Every path and query asked, oldest first. */
  requests: string[];
  setMode(service: 'postcodes' | 'planning', mode: FakeServiceMode): void;
  /** Answers nothing until release(): the requests asked meanwhile are kept and then answered in order. */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function postcodeAnswer(res: ServerResponse, text: string): void {
  const compact = decodeURIComponent(text).replace(/\s+/g, '').toUpperCase();
  const postcode = Object.keys(FAKE_PLACES).find((p) => p.replace(' ', '') === compact);
  if (!postcode) {
    sendJson(res, 404, { status: 404, error: compact.length < 5 ? 'Invalid postcode' : 'Postcode not found' });
    return;
  }
  const place = FAKE_PLACES[postcode]!;
  sendJson(res, 200, {
    status: 200,
    result: {
      postcode,
      quality: 1,
      country: 'England',
      longitude: place.longitude,
      latitude: place.latitude,
      admin_district: place.district,
      codes: { admin_district: place.districtCode },
    },
  });
}

function entitiesAnswer(res: ServerResponse, query: URLSearchParams): void {
  const latitude = Number(query.get('latitude'));
  const longitude = Number(query.get('longitude'));
  const datasets = query.getAll('dataset');
  const place = Object.values(FAKE_PLACES).find((p) => Math.abs(p.latitude - latitude) < 1e-5 && Math.abs(p.longitude - longitude) < 1e-5);
  const entities = (place?.entities ?? []).filter((e) => datasets.length === 0 || datasets.includes(e.dataset as string));
  sendJson(res, 200, { entities, links: { first: '/entity.json?offset=0', last: '/entity.json?offset=0' }, count: entities.length });
}

export async function startFakePlanning(): Promise<FakePlanning> {
  const modes = { postcodes: 'ok' as FakeServiceMode, planning: 'ok' as FakeServiceMode };
  const requests: string[] = [];
  let held: (() => void)[] | null = null;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(url.pathname + url.search);
    if (held) return void held.push(() => answer(url, res));
    answer(url, res);
  });
  function answer(url: URL, res: ServerResponse): void {
    const service = url.pathname.startsWith('/postcodes/') ? 'postcodes' : 'planning';
    if (modes[service] === 'down') return sendJson(res, 500, { status: 500, error: 'The fake service is down' });
    // Held until the client gives up (or close() ends it).
    if (modes[service] === 'slow') return;
    const postcode = /^\/postcodes\/([^/]+)$/.exec(url.pathname);
    if (postcode) return postcodeAnswer(res, postcode[1]!);
    if (url.pathname === '/entity.json') return entitiesAnswer(res, url.searchParams);
    const council = /^\/entity\/(\d+)\.json$/.exec(url.pathname);
    const found = council ? COUNCILS[council[1]!] : undefined;
    if (council && found) return sendJson(res, 200, { entity: Number(council[1]), dataset: 'local-authority', typology: 'organisation', ...found });
    sendJson(res, 404, { detail: 'Not Found' });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setMode(service, mode) {
      modes[service] = mode;
    },
    hold() {
      held ??= [];
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const send of waiting) send();
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

