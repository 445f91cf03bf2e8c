import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedAnalyzeResponseSchema } from '../../core/embed-api';
import { section211ResponseSchema, SECTION_211_LIMITS, type Section211, type Section211Input } from '../../core/section-211';
import { treeAnalyses } from '../../db/schema';
import { analyze } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, type TestClient, type TestServer } from '../../testing/harness';
import { jobOf } from '../../testing/jobs';
import { startProtectionWorld } from '../../testing/protection';
import { pdfText } from '../../testing/quote';

/*
 * The section 211 notice as a council takes it (docs/product.md, Protected trees), over HTTP on
 * the real app with the fake postcode and planning services: sizes as they were given (a trunk
 * typed as 55 cm prints 55 cm; a homeowner's band prints as the band), an unknown species as not
 * identified with the surgeon's description, and every tree corrected in the editor and kept.
 */
let server: TestServer;
let owner: TestClient;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, owner, close } = await startProtectionWorld());
});
afterAll(() => close());

const SITE = '1 Clifton Down Road, Bristol BS8 4AA';

async function analysisId(fields: Parameters<typeof analyze>[1]): Promise<number> {
  const res = await analyze(owner, fields);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { analysis: { id: number } }).analysis.id;
}

async function noticePdf(jobId: number, client = owner): Promise<{ text: string; images: number }> {
  const res = await client.get(`/api/jobs/${jobId}/section-211.pdf`);
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  // Each photo drawn is one image XObject (pdfkit writes them uncompressed in their dictionaries).
  return { text: (await pdfText(bytes)).text.replace(/\s+/g, ' '), images: bytes.toString('latin1').match(/\/Subtype \/Image/g)?.length ?? 0 };
}
const noticeText = async (jobId: number, client = owner) => (await noticePdf(jobId, client)).text;

async function notice(jobId: number): Promise<Section211> {
  const res = await owner.get(`/api/jobs/${jobId}/section-211`);
  expect(res.status, await res.clone().text()).toBe(200);
  return section211ResponseSchema.parse(await res.json()).notice;
}

const save = (jobId: number, body: unknown, client = owner) => client.request('PUT', `/api/jobs/${jobId}/section-211`, body);

describe('the notice as drafted from the estimates', () => {
  it('prints a trunk typed as 55 cm as 55 cm, never 55.9 cm; an unknown species as not identified with the surgeon\'s description', async () => {
    const typed = await analysisId({ treeDetails: { species: 'Oak', height: { value: 12.5, unit: 'm' }, diameter: { value: 55, unit: 'cm' } } });
    const unknown = await analysisId({ description: 'tall tree with peeling red bark by the back gate, 30 cm trunk, 9 m tall' });
    const job = await jobOf(await owner.post('/api/jobs', { analysisIds: [typed, unknown], customer: { name: 'Sam Hill', siteAddress: SITE } }), 201);

    const drafted = await notice(job.id);
    expect(drafted.savedAt).toBeNull();
    expect(drafted.trees.map((t) => [t.title, t.trunkLine])).toEqual([
      ['Tree 1: Oak', 'Trunk 55 cm across: over the 7.5 cm threshold, so notice is needed'],
      ['Tree 2: species not identified: tall tree with peeling red bark by the back gate, 30 cm trunk, 9 m tall', 'Trunk 30 cm across: over the 7.5 cm threshold, so notice is needed'],
    ]);

    const { text, images } = await noticePdf(job.id);
    // Each tree's photo from its estimate, captioned with the tree it shows.
    expect(images).toBe(2);
    expect(text).toContain('Tree 1, as photographed for the estimate');
    expect(text).toContain('Tree 2, as photographed for the estimate');
    expect(text).toContain('Tree 1: Oak Where it stands: to be added before sending Height about 12.5 m (41 ft). Trunk 55 cm across: over the 7.5 cm threshold');
    expect(text).toContain('Tree 2: species not identified: tall tree with peeling red bark by the back gate');
    expect(text).not.toContain('55.9');
    expect(text).not.toContain('species to be confirmed');
  });

  it("prints a homeowner's band as the band and says what it means against 7.5 cm", async () => {
    const business = await createBusinessFor(owner);
    const trees = [];
    for (const band of ['thicker_than_plate', 'up_to_plate']) {
      const res = await visitorAnalyze(server, business.slug, { treeDetails: { diameter: { band } } });
      expect(res.status, await res.clone().text()).toBe(201);
      trees.push(embedAnalyzeResponseSchema.parse(await res.json()));
    }
    const lead = await visitorLead(server, business.slug, { trees: trees.map((t) => ({ analysisId: t.analysis.id, leadToken: t.leadToken })), name: 'Jo Bloggs', phone: '07700 900123' });
    expect(lead.status, await lead.clone().text()).toBe(201);
    const leads = (await (await owner.get(`/api/businesses/${business.id}/leads`)).json()) as { leads: { id: number }[] };
    const job = await jobOf(await owner.post('/api/jobs', { leadId: leads.leads[0]!.id }), 201);

    const text = await noticeText(job.id);
    expect(text).toContain("Trunk 27 to 50 cm (the owner's estimate, not measured) across: the whole band is over the 7.5 cm threshold, so notice is needed");
    expect(text).toContain("Trunk 7 to 27 cm (the owner's estimate, not measured) across: the band spans the 7.5 cm threshold: measure the trunk at 1.5 m to know whether notice is needed");
    expect(text).not.toContain('38.1 cm');
  });

  it('reads an estimate stored before sizes were kept as given from its whole inches, said as rough', async () => {
    const id = await analysisId({ description: 'ash, 55 cm trunk, 12 m tall' });
    // A row as written before: the sources, and no sizes as given.
    server.db.update(treeAnalyses).set({ valueSources: { species: 'description', height: 'description', diameter: 'description' } }).where(eq(treeAnalyses.id, id)).run();
    const job = await jobOf(await owner.post('/api/jobs', { analysisIds: [id], customer: { name: 'Sam Hill', siteAddress: SITE } }), 201);
    expect((await notice(job.id)).trees[0]!.trunkLine).toBe('Trunk about 56 cm (from the project details, not measured) across: over the 7.5 cm threshold, so notice is needed');
  });

  it("gives the estimator's visitor their typed trunk back as typed", async () => {
    const business = await createBusinessFor(owner);
    const res = await visitorAnalyze(server, business.slug, { treeDetails: { diameter: { value: 55, unit: 'cm' } } });
    expect(res.status, await res.clone().text()).toBe(201);
    const { analysis } = embedAnalyzeResponseSchema.parse(await res.json());
    expect(analysis.diameter).toBe(22);
    expect(analysis.enteredSizes?.diameter).toEqual({ value: 55, unit: 'cm' });
  });
});

describe('the notice corrected before download', () => {
  it('keeps each tree\'s species, where it stands, description, work and trunk, and the PDF prints them; a typed line becomes a tree once something is said of it', async () => {
    const oak = await analysisId({ description: 'oak, 20 inch trunk, 50 ft tall' });
    const job = await jobOf(await owner.post('/api/jobs', { analysisIds: [oak], customer: { name: 'Sam Hill', siteAddress: SITE } }), 201);
    await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Fell the sycamore by the wall', price: '300' });
    await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Take the waste away', price: '80' });
    const [oakItem, sycamoreItem, wasteItem] = (await notice(job.id)).trees;
    expect([oakItem!.printed, sycamoreItem!.printed, wasteItem!.printed]).toEqual([true, false, false]);
    expect(wasteItem!.title).toBe('Other work: Take the waste away');
    expect(oakItem!.estimateTrunk).toBe('20 in (50.8 cm)');

    const body: Section211Input = {
      trees: [
        { itemId: oakItem!.itemId, species: 'English oak (Quercus robur)', location: 'Rear garden, 3 m from the north boundary', work: 'Reduce the crown by 2 m all round', trunk: { value: 52.5, unit: 'cm' } },
        { itemId: sycamoreItem!.itemId, species: null, description: 'Multi-stemmed tree against the\u202E east wall', location: 'Front garden by the wall', work: 'Fell to ground level' },
      ],
    };
    const saved = await save(job.id, body);
    expect(saved.status, await saved.clone().text()).toBe(200);
    const after = section211ResponseSchema.parse(await saved.json()).notice;
    expect(after.savedAt).toBe(server.clock.now().toISOString());
    expect(after.trees[0]).toMatchObject({ species: 'English oak (Quercus robur)', location: 'Rear garden, 3 m from the north boundary', trunk: { value: 52.5, unit: 'cm' } });
    // The bidi override is taken out of what is kept (core/plain-text.ts).
    expect(after.trees[1]).toMatchObject({ printed: true, description: 'Multi-stemmed tree against the east wall', title: 'Tree 2: species not identified: Multi-stemmed tree against the east wall' });
    expect(await notice(job.id)).toEqual(after);

    const text = await noticeText(job.id);
    expect(text).toContain('Tree 1: English oak (Quercus robur) Where it stands: Rear garden, 3 m from the north boundary Height about 50 ft (15 m). Trunk 52.5 cm across at 1.5 m: over the 7.5 cm threshold, so notice is needed. Work: Reduce the crown by 2 m all round');
    expect(text).toContain('Tree 2: species not identified: Multi-stemmed tree against the east wall Where it stands: Front garden by the wall Height not measured. Trunk not measured: notice is needed from 7.5 cm across at 1.5 m. Work: Fell to ground level');
    expect(text).toContain('Other work on the job: Take the waste away');
    // The oak's photo; the sycamore, a typed line, has none.
    expect(text).toContain('Tree 1, as photographed for the estimate');
    expect(text).not.toContain('Tree 2, as photographed');
    expect(text).not.toContain('Remove the Oak');

    // Saved again without the sycamore: it is drafted again, as other work.
    const again = await save(job.id, { trees: [body.trees[0]] });
    expect(section211ResponseSchema.parse(await again.json()).notice.trees[1]).toMatchObject({ printed: false, work: 'Fell the sycamore by the wall', location: null });
  });

  it('refuses what is too long, too many, repeated, not a line of this job, or a trunk that is no measurement, with a sentence, and keeps nothing', async () => {
    const job = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Sam Hill', siteAddress: SITE } }), 201);
    await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Fell the ash', price: '300' });
    const other = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Other', siteAddress: SITE } }), 201);
    await owner.post(`/api/jobs/${other.id}/lines`, { description: 'Fell the beech', price: '300' });
    const itemId = (await notice(job.id)).trees[0]!.itemId;
    const otherItem = (await notice(other.id)).trees[0]!.itemId;
    const tree = { itemId, work: 'Fell the ash' };

    const refused = async (body: unknown, field: string, message: string) => {
      const res = await save(job.id, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const answer = (await res.json()) as { code: string; message: string; details?: Record<string, string[]> };
      expect(answer.code).toBe('VALIDATION_ERROR');
      expect(Object.entries(answer.details ?? {}).find(([key]) => key.endsWith(field))?.[1], JSON.stringify(answer)).toContain(message);
    };
    await refused({ trees: [{ ...tree, location: 'x'.repeat(SECTION_211_LIMITS.location + 1) }] }, 'location', 'Where the tree stands must be at most 200 characters');
    await refused({ trees: [{ ...tree, species: 'x'.repeat(81) }] }, 'species', 'The species must be at most 80 characters');
    await refused({ trees: [{ ...tree, work: '   ' }] }, 'work', 'Describe the work to this tree');
    await refused({ trees: [{ ...tree, trunk: { value: 55.25, unit: 'cm' } }] }, 'trunk.value', 'Give the trunk in cm (up to 450) or inches (up to 180), to one decimal at most');
    await refused({ trees: [{ ...tree, trunk: { value: 1e9, unit: 'in' } }] }, 'trunk.value', 'Give the trunk in cm (up to 450) or inches (up to 180), to one decimal at most');
    await refused({ trees: [{ ...tree, trunk: { value: 40, unit: 'furlong' } }] }, 'trunk.unit', 'Give the trunk in cm (up to 450) or inches (up to 180), to one decimal at most');
    await refused({ trees: [tree, tree] }, 'trees', 'Each tree may appear once');
    await refused({ trees: Array.from({ length: 51 }, (_, i) => ({ itemId: i + 1, work: 'x' })) }, 'trees', 'A notice holds at most 50 trees');
    await refused({ trees: [{ itemId: otherItem, work: 'Fell the beech' }] }, 'trees', 'A tree on the notice is not on this job any more: reload the page');
    expect((await save(job.id, '{"trees": [')).status).toBe(400);
    expect((await notice(job.id)).savedAt).toBeNull();
    expect((await notice(other.id)).savedAt).toBeNull();
  });

  it("is a 404 on another account's job, read or written, and a cross-site write is refused", async () => {
    const job = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Sam Hill', siteAddress: SITE } }), 201);
    await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Fell the ash', price: '300' });
    const itemId = (await notice(job.id)).trees[0]!.itemId;
    const stranger = (await registerClient(server)).client;
    expect((await stranger.get(`/api/jobs/${job.id}/section-211`)).status).toBe(404);
    expect((await save(job.id, { trees: [{ itemId, location: 'Mine now', work: 'Fell the ash' }] }, stranger)).status).toBe(404);
    const crossSite = await owner.request('PUT', `/api/jobs/${job.id}/section-211`, { trees: [{ itemId, location: 'From evil', work: 'Fell the ash' }] }, { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect((await notice(job.id)).trees[0]!.location).toBeNull();
    expect(await noticeText(job.id)).not.toContain('Mine now');
  });
});
