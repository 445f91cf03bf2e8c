import type { ReactNode } from 'react';
import { cardStyles } from '../ui';

/** A titled section of the results. */
export function Card({ title, icon, children }: { title: string; icon?: ReactNode; children: ReactNode }) {
  return (
    <section className={cardStyles}>
      <h3 className="flex items-center gap-2 text-base font-semibold text-stone-900">
        {icon}
        {title}
      </h3>
      <div className="mt-3">{children}</div>
    </section>
  );
}
