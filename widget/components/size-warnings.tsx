import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * Sizes that look unusual for the tree (core/plausibility.ts), flagged the same way while
 * measuring, when asked to check them, and on an estimate made with them.
 */
export function SizeWarnings({ title, warnings, children }: { title: string; warnings: string[]; children?: ReactNode }) {
  if (warnings.length === 0) return null;
  return (
    <section aria-label={title} data-testid="size-warnings" className="flex gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700" />
      <div className="flex min-w-0 flex-col gap-2">
        <p className="font-semibold">{title}</p>
        <ul className="flex list-disc flex-col gap-1 pl-5 text-sm">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
        {children}
      </div>
    </section>
  );
}
