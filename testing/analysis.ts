import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findUserByUsername } from '../server/accounts/users';
import { grantCredits } from '../server/credits/ledger';
import type { TestClient, TestServer } from './harness';

/** Real tree photos (Wikimedia Commons, see the ATTRIBUTION.md beside them). */
export const PHOTOS_DIR = fileURLToPath(new URL('../e2e/fixtures/photos/', import.meta.url));

export function photo(name = 'elm-beside-building.jpg'): Buffer {
  return readFileSync(PHOTOS_DIR + name);
}

export function analysisForm(
  fields: {
    image?: Buffer | null;
    filename?: string;
    type?: string;
    description?: string;
    siteDetails?: unknown;
    /** core/tree-details.ts TreeDetails, or raw text to send as it is. */
    treeDetails?: unknown;
    businessSlug?: string;
  } = {},
): FormData {
  const form = new FormData();
  if (fields.image !== null) {
    const bytes = fields.image ?? photo();
    form.append('image', new Blob([new Uint8Array(bytes)], { type: fields.type ?? 'image/jpeg' }), fields.filename ?? 'tree.jpg');
  }
  if (fields.description !== undefined) form.append('description', fields.description);
  if (fields.siteDetails !== undefined) form.append('siteDetails', typeof fields.siteDetails === 'string' ? fields.siteDetails : JSON.stringify(fields.siteDetails));
  if (fields.treeDetails !== undefined) form.append('treeDetails', typeof fields.treeDetails === 'string' ? fields.treeDetails : JSON.stringify(fields.treeDetails));
  if (fields.businessSlug !== undefined) form.append('businessSlug', fields.businessSlug);
  return form;
}

export function grantTo(server: TestServer, username: string, credits: number): void {
  const user = findUserByUsername(server.db, username);
  if (!user) throw new Error(`no user ${username}`);
  grantCredits(server.db, server.clock, user.id, credits, 'grant', 'test');
}

export function analyze(client: TestClient, fields: Parameters<typeof analysisForm>[0] = {}) {
  return client.upload('/api/analyze-tree', analysisForm(fields));
}

/** Taps on a 1000 x 1500 photo: 2 cm a pixel from a 2 m door; a 12 m (39 ft) tree and a 0.5 m (20 in) trunk. */
export const DOOR_MEASUREMENT = {
  imageWidth: 1000,
  imageHeight: 1500,
  reference: { top: { x: 100, y: 1300 }, bottom: { x: 100, y: 1400 }, lengthM: 2, label: 'A door (2.0 m)' },
  tree: { top: { x: 500, y: 800 }, base: { x: 500, y: 1400 } },
  trunk: { left: { x: 490, y: 1330 }, right: { x: 515, y: 1330 } },
};

/**
 * The case a tester measured on a phone (e2e/fixtures/photos/redbud-small-tree.jpg, 700 x 525):
 * "A person (1.7 m)" tapped on something small by a pavilion, 23 px tall (4% of the photo), and
 * the tree and its trunk tapped right. It measures a 35.5 m tree with a trunk 296 cm across.
 */
export const REDBUD_TINY_REFERENCE = {
  imageWidth: 700,
  imageHeight: 525,
  reference: { top: { x: 470, y: 320 }, bottom: { x: 470, y: 343 }, lengthM: 1.7, label: 'A person (1.7 m)' },
  tree: { top: { x: 350, y: 20 }, base: { x: 350, y: 500 } },
  trunk: { left: { x: 330, y: 470 }, right: { x: 370, y: 470 } },
};
