import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * Sizes the checks find unlikely (core/plausibility.ts), flagged the same way wherever they are
 * shown: while measuring, on the answer that asks to check them, and on results made with them.
 */
export function SizeWarnings({
  title,
  warnings,
  children,
  testId = 'size-warnings',
}: {
  title: string;
  warnings: string[];
  /** What to do about them, under the list. */
  children?: ReactNode;
  testId?: string;
}) {
  if (warnings.length === 0) return null;
  return (
    <section
      className="flex items-start gap-3 rounded-xl border-2 border-amber-400 bg-amber-50 px-4 py-3 text-amber-950"
      data-testid={testId}
      aria-label={title}
    >
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700" />
      <div className="flex min-w-0 flex-col gap-2">
        <h3 className="font-semibold">{title}</h3>
        <ul className="list-disc space-y-1 pl-5 text-sm marker:text-amber-700">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
        {children}
      </div>
    </section>
  );
}
