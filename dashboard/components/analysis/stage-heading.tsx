import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A stage's h2. When the stage was reached by the user's action (not on first load),
 * focus moves to it, so keyboard and screen-reader users land on the new content.
 */
export function StageHeading({ id, focus, children }: { id?: string; focus: boolean; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <h2 ref={ref} id={id} tabIndex={-1} className="text-xl font-bold text-green-900 outline-none sm:text-2xl">
      {children}
    </h2>
  );
}
