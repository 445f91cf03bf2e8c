import { isRecord } from '../../core/is-record';
import { getJson, ServiceAnswer } from './fetch-json';
import type { PlanningData, PlanningEntity } from './types';

/**
 * planning.data.gov.uk (Open Government Licence; its docs call the API experimental and say that
 * no result does not mean no constraint). The shapes are the platform's own code
 * (github.com/digital-land/digital-land.info):
 * - `GET /entity.json?latitude=&longitude=&dataset=...` (application/routers/entity.py,
 *   get_entity_search): `{ entities: [...], links: {...}, count }`, each entity an EntityModel
 *   (application/core/models.py) with kebab-case keys: `entity`, `name`, `dataset`, `reference`,
 *   `organisation-entity`, `entry-date`, ..., `geometry` and `point` as WKT, which we leave out
 *   with `exclude_field` (they can be large) since only the names matter;
 * - `GET /entity/{entity}.json`: one entity; an organisation's (a council's) carries its `name`
 *   and `website` (the organisation dataset's fields, OrganisationModel).
 * Only the point's coordinates are sent.
 */
export const PLANNING_DATASETS = ['conservation-area', 'tree-preservation-zone', 'tree', 'local-planning-authority'] as const;

const organisationOf = (value: unknown): string | null => (typeof value === 'number' || (typeof value === 'string' && /^\d{1,12}$/.test(value)) ? String(value) : null);

export function planningData(baseUrl: string): PlanningData {
  return {
    source: baseUrl,
    async entitiesAt(latitude: number, longitude: number, signal: AbortSignal): Promise<PlanningEntity[]> {
      const query = new URLSearchParams({ latitude: latitude.toFixed(6), longitude: longitude.toFixed(6) });
      for (const dataset of PLANNING_DATASETS) query.append('dataset', dataset);
      query.append('exclude_field', 'geometry,point');
      query.append('limit', '100');
      const { status, body } = await getJson(`${baseUrl}/entity.json?${query}`, signal);
      if (status !== 200 || !isRecord(body) || !Array.isArray(body.entities)) throw new ServiceAnswer(status, `planning data answered ${status}`);
      return body.entities.filter(isRecord).map((e) => ({ name: e.name, reference: e.reference, dataset: e.dataset, organisationEntity: organisationOf(e['organisation-entity']) }));
    },
    async organisation(entity: string, signal: AbortSignal) {
      const { status, body } = await getJson(`${baseUrl}/entity/${encodeURIComponent(entity)}.json`, signal);
      if (status === 404) return null;
      if (status !== 200 || !isRecord(body)) throw new ServiceAnswer(status, `planning data answered ${status}`);
      return { name: body.name, website: body.website };
    },
  };
}
