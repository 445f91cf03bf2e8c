import { describe, expect, it } from 'vitest';
import type { Job } from '../../../core/jobs';
import { formatAnalysisDate } from '../analysis/analysis-date';
import { versionWords } from './version-words';

/* The job page's list of versions sent: in a team, who sent each (docs/product.md, Team). */
const version: Job['versions'][number] = {
  version: 2,
  sentTo: 'jo@example.test',
  sentAt: '2026-11-02T12:00:00.000Z',
  expiresAt: '2026-12-02T12:00:00.000Z',
  viewedAt: '2026-11-03T08:00:00.000Z',
  revokedAt: null,
  replacedAt: null,
  contentHash: 'abc',
  answers: [{ kind: 'accepted', at: '2026-11-04T09:00:00.000Z', name: 'Jo Rowan', message: null }],
};
const at = formatAnalysisDate;

describe('versionWords', () => {
  it('names who sent it in a team, beside the customer who answered', () => {
    expect(versionWords({ ...version, sentBy: 'Sam Field' })).toBe(
      ` sent to jo@example.test by Sam Field on ${at(version.sentAt)}, opened ${at(version.viewedAt!)} · Accepted ${at('2026-11-04T09:00:00.000Z')} by Jo Rowan`,
    );
  });

  it('reads as before teams without a name (a team of one), or when nobody is named', () => {
    const solo = ` sent to jo@example.test on ${at(version.sentAt)}, not opened yet · replaced`;
    expect(versionWords({ ...version, viewedAt: null, answers: [], replacedAt: '2026-11-05T09:00:00.000Z' })).toBe(solo);
    expect(versionWords({ ...version, viewedAt: null, answers: [], replacedAt: '2026-11-05T09:00:00.000Z', sentBy: null })).toBe(solo);
  });
});
