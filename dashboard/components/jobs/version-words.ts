import type { Job } from '../../../core/jobs';
import { formatAnalysisDate } from '../analysis/analysis-date';
import { byPerson } from '../by-person';

const ANSWER_WORDS = { accepted: 'Accepted', declined: 'Declined', changes_requested: 'Change asked' } as const;

/**
 * A version sent, as the job page's list says it after "Version 2": to whom, by whom in a team
 * (by-person.ts), when, whether it was opened, the customer's answers and whether it still
 * stands. Pure, so it is tested without a browser.
 */
export function versionWords(v: Job['versions'][number]): string {
  const sent = ` sent to ${v.sentTo}${byPerson(v.sentBy)} on ${formatAnalysisDate(v.sentAt)}`;
  const opened = v.viewedAt ? `, opened ${formatAnalysisDate(v.viewedAt)}` : v.answers.length > 0 ? '' : ', not opened yet';
  const answers = v.answers.map((a) => ` · ${ANSWER_WORDS[a.kind]} ${formatAnalysisDate(a.at)}${a.name ? ` by ${a.name}` : ''}${a.message ? `: "${a.message}"` : ''}`).join('');
  const standing = v.replacedAt ? ' · replaced' : v.revokedAt ? ' · withdrawn' : '';
  return `${sent}${opened}${answers}${standing}`;
}
