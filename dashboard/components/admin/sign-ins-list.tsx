import { ADMIN_SIGN_INS_SHOWN } from '../../../core/admin';
import { useAdminSignIns } from '../../api/admin';
import { formatAnalysisDate } from '../analysis/analysis-date';
import { PageState } from '../page-state';
import { cardStyles } from '../ui';
import { signInFrom, signInWho } from './sign-in-words';

/**
 * The admin log keeps sign-ins per person (docs/product.md, Team): the install's newest, each with
 * who, their team and role, when and from which network. A list, not a table: it wraps on a
 * phone and the accounts table stays the page's one table.
 */
export function SignInsSection() {
  const signIns = useAdminSignIns();
  let body;
  if (signIns.isPending) {
    body = <PageState kind="loading" label="Loading sign-ins" className="py-6" />;
  } else if (signIns.isError) {
    body = <PageState kind="failed" error={signIns.error} fallback="The sign-ins could not be loaded." onRetry={signIns.refetch} />;
  } else if (signIns.data.signIns.length === 0) {
    body = <p className="text-sm text-stone-700">Nobody has signed in yet.</p>;
  } else {
    body = (
      <ol aria-labelledby="sign-ins-heading" className="flex flex-col gap-1 text-sm text-stone-800">
        {signIns.data.signIns.map((signIn, index) => (
          <li key={`${signIn.person.id}-${signIn.at}-${index}`} className="flex flex-wrap gap-x-2 rounded-lg bg-stone-50 px-3 py-2 [overflow-wrap:anywhere]">
            <span className="font-medium text-stone-900">{signInWho(signIn)}</span>
            <time dateTime={signIn.at}>{formatAnalysisDate(signIn.at)}</time>
            <span className="text-stone-700">{signInFrom(signIn.address)}</span>
          </li>
        ))}
      </ol>
    );
  }
  return (
    <section aria-labelledby="sign-ins-heading" className={`${cardStyles} flex flex-col gap-3 p-5 sm:p-6`}>
      <div>
        <h2 id="sign-ins-heading" className="text-lg font-semibold text-stone-900">
          Recent sign-ins
        </h2>
        <p className="mt-1 text-sm text-stone-700">{`The newest ${ADMIN_SIGN_INS_SHOWN} on this server, each with the person's team and role.`}</p>
      </div>
      {body}
    </section>
  );
}
