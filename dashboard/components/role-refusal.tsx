import { Home, Lock } from 'lucide-react';
import { Link } from 'wouter';
import { AREAS, type AreaName } from '../../core/permissions';
import { PageTitle } from './page-layout';
import { buttonStyles } from './ui';

/** What a page says to a role that may not use it: the same sentence the server's 403 says (core/permissions.ts), and the way home. */
export function RoleRefusal({ area, home }: { area: AreaName; home: string }) {
  return (
    <div className="flex flex-col items-start gap-4">
      <PageTitle title="Not part of your role" />
      <p role="alert" className="flex items-start gap-2 rounded-lg border border-stone-300 bg-stone-50 px-3 py-2.5 text-stone-800">
        <Lock aria-hidden="true" className="mt-1 size-4 shrink-0" />
        {AREAS[area].refusal}
      </p>
      <Link href={home} className={buttonStyles.primary}>
        <Home aria-hidden="true" className="size-4" />
        {home === '/my-days' ? 'Go to My days' : 'Go to Home'}
      </Link>
    </div>
  );
}
