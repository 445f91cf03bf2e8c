import { analyzeResponseSchema, type Analysis } from '../core/analysis';
import { formatTimeRange } from '../core/format';
import type { SiteDetails } from '../core/site';
import type { TreeDetails } from '../core/tree-details';
import { analysisForm, grantTo } from '../testing/analysis';
import { registerClient, startTestServer } from '../testing/harness';
import { fixturePhoto, type FixturePhoto } from '../testing/images';

/**
 * Held-out accuracy (docs/analysis.md, Held-out accuracy): the five real photos in
 * e2e/fixtures/photos (none was used to set the time model's constants), each sent through the
 * real pipeline with the local provider and the details a homeowner would give, next to the
 * published UK job durations for a tree of that height. Prints the table in docs/analysis.md, Held-out accuracy.
 * Run: node --import tsx bench/held-out.ts
 */

/**
 * Published UK durations by height, the two guides core/time-model.test.ts cites:
 * improvementcosts.com "Tree removal cost": up to 25 ft 2-3 hours, 26-50 ft 3-5 hours, over
 * 50 ft 2-3 days; nexttradesman.co.uk "How much does tree removal cost": below 25 ft 3-4 hours,
 * 25-50 ft 1 day, 50-75 ft 1-2 days (nothing published above 75 ft). A day is taken as 8 crew hours.
 */
function published(heightFt: number): { text: string; lowH: number; highH: number } {
  if (heightFt <= 25) return { text: 'up to 25 ft: 2-3 h (improvementcosts), 3-4 h (nexttradesman)', lowH: 2, highH: 4 };
  if (heightFt <= 50) return { text: '26-50 ft: 3-5 h (improvementcosts), 1 day (nexttradesman)', lowH: 3, highH: 8 };
  if (heightFt <= 75) return { text: 'over 50 ft: 2-3 days (improvementcosts); 50-75 ft: 1-2 days (nexttradesman)', lowH: 8, highH: 24 };
  return { text: 'over 50 ft: 2-3 days (improvementcosts); nexttradesman stops at 75 ft', lowH: 16, highH: 24 };
}

interface Case {
  photo: FixturePhoto;
  shows: string;
  /** What the homeowner gives, in their words, for the table. */
  given: string;
  treeDetails: TreeDetails;
  siteDetails: Required<SiteDetails>;
}

const CASES: Case[] = [
  {
    photo: 'redbud-small-tree.jpg',
    shows: 'small redbud on a lawn beside paved paths',
    given: 'Redbud; 15 ft typed; trunk "up to a dinner plate"; footpath in reach, open access, short drag, stump ground, waste taken',
    treeDetails: { species: 'Redbud', height: { value: 15, unit: 'ft' }, diameter: { band: 'up_to_plate' } },
    siteDetails: { targets: 'road', powerLines: false, access: 'open', dragDistance: 'short', stumpGrinding: true, wasteRemoval: true },
  },
  {
    photo: 'black-walnut-park.jpg',
    shows: 'open-grown black walnut in a park',
    given: 'Black walnut; 16 m typed; trunk 80 cm typed; nothing in reach, open access, 10-30 m drag, wood taken',
    treeDetails: { species: 'Black walnut', height: { value: 16, unit: 'm' }, diameter: { value: 80, unit: 'cm' } },
    siteDetails: { targets: 'nothing', powerLines: false, access: 'open', dragDistance: 'medium', stumpGrinding: false, wasteRemoval: true },
  },
  {
    photo: 'elm-beside-building.jpg',
    shows: 'tall elm a few metres from a building',
    given: 'Elm; height "much taller than a house"; trunk 36 in typed; building in reach, open access, 10-30 m drag, wood taken',
    treeDetails: { species: 'Elm', height: { band: 'much_taller' }, diameter: { value: 36, unit: 'in' } },
    siteDetails: { targets: 'building', powerLines: false, access: 'open', dragDistance: 'medium', stumpGrinding: false, wasteRemoval: true },
  },
  {
    photo: 'elm-open-ground.jpg',
    shows: 'veteran elm with a very wide trunk beside a street',
    given: 'Elm; 80 ft typed; trunk 150 cm typed; road in reach, open access, short drag, wood taken',
    treeDetails: { species: 'Elm', height: { value: 80, unit: 'ft' }, diameter: { value: 150, unit: 'cm' } },
    siteDetails: { targets: 'road', powerLines: false, access: 'open', dragDistance: 'short', stumpGrinding: false, wasteRemoval: true },
  },
  {
    photo: 'bigleaf-maple.jpg',
    shows: 'tall twin-stemmed maple in woodland',
    given: 'Maple; 24 m typed; trunk "thicker than a dinner plate"; nothing in reach, open access, drag over 30 m, wood left',
    treeDetails: { species: 'Maple', height: { value: 24, unit: 'm' }, diameter: { band: 'thicker_than_plate' } },
    siteDetails: { targets: 'nothing', powerLines: false, access: 'open', dragDistance: 'long', stumpGrinding: false, wasteRemoval: false },
  },
];

const hours = (minutes: number) => (minutes / 60).toFixed(1);

function row(c: Case, a: Analysis): string {
  const min = a.cuttingTimeMin + a.prepTimeMin + a.cleanupTimeMin;
  const max = a.cuttingTimeMax + a.prepTimeMax + a.cleanupTimeMax;
  const band = published(a.height ?? 0);
  const overlaps = min <= band.highH * 60 && max >= band.lowH * 60;
  const cells = [
    `${c.photo} (${c.shows})`,
    c.given,
    `${a.species}, ${a.height} ft, ${a.diameter} in`,
    (a.method ?? '').replace(/_/g, ' '),
    formatTimeRange({ min: a.cuttingTimeMin, max: a.cuttingTimeMax }),
    formatTimeRange({ min: a.prepTimeMin, max: a.prepTimeMax }),
    formatTimeRange({ min: a.cleanupTimeMin, max: a.cleanupTimeMax }),
    `${hours(min)}-${hours(max)} h`,
    String(a.confidence),
    band.text,
    overlaps ? 'yes' : 'no',
  ];
  return `| ${cells.join(' | ')} |`;
}

const server = await startTestServer();
try {
  const { client, account } = await registerClient(server);
  grantTo(server, account.username, 10 * CASES.length);
  const rows: string[] = [];
  for (const c of CASES) {
    const res = await client.upload('/api/analyze-tree', analysisForm({ image: fixturePhoto(c.photo), treeDetails: c.treeDetails, siteDetails: c.siteDetails }));
    if (res.status !== 201) throw new Error(`${c.photo}: ${res.status} ${await res.text()}`);
    rows.push(row(c, analyzeResponseSchema.parse(await res.json()).analysis));
  }
  console.log(
    [
      '| Photo | What the homeowner gives | Used | Method | Cutting | Prep | Cleanup | Total | Confidence | Published UK duration for that height | Overlaps |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );
} finally {
  await server.close();
}
