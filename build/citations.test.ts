import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Code cites where a rule is written down in this repository (docs/product.md and the other
 * docs/ pages), never the product brief, its decision log or a tracker's issue numbers, which
 * a reader of the repository does not have. Markdown, docs/, the lockfile and binary fixtures
 * are not code and are left out.
 *
 * The pattern is assembled from pieces so this file does not match it itself.
 */
const BRIEF = ['SP', 'EC'].join('');
const DECISION_LOG = ['DECI', 'SIONS'].join('');
const TRACKER = ['[Ii]', 'ssue'].join('');
const CITATION = new RegExp(`\\b${BRIEF}\\b|${DECISION_LOG}|${TRACKER} #?[0-9]+|\\(i${TRACKER.slice(4)}[ ":]`);

const root = fileURLToPath(new URL('..', import.meta.url));

function trackedCode(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((path) => path !== '')
    .filter((path) => !path.startsWith('docs/') && !path.endsWith('.md'))
    .filter((path) => !path.startsWith('e2e/fixtures/') && path !== 'package-lock.json');
}

function citations(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(root + path, 'utf8');
  } catch {
    return []; // listed by git but deleted in the working tree
  }
  if (text.includes('\0')) return [];
  return text
    .split('\n')
    .flatMap((line, index) => (CITATION.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : []));
}

describe('citations', () => {
  it('finds the forms it looks for, and not a zod issue', () => {
    expect(CITATION.test(`(${BRIEF} 7)`)).toBe(true);
    expect(CITATION.test(`${DECISION_LOG}, Analysis`)).toBe(true);
    expect(CITATION.test('(iss' + 'ue 10: the list)')).toBe(true);
    expect(CITATION.test('Iss' + 'ue 20, goal 3')).toBe(true);
    expect(CITATION.test('(iss' + 'ue "Billing")')).toBe(true);
    expect(CITATION.test('error.issues.map((issue) => issue.message)')).toBe(false);
    expect(CITATION.test('SPECIES_LIMITS')).toBe(false);
  });

  it('no code outside docs/ cites the brief, the decision log or an issue number', () => {
    const found = trackedCode().flatMap(citations);
    expect(found, 'cite docs/product.md (or the docs/ page) instead, or say why in place').toEqual([]);
  });
});
