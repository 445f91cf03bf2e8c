import { useEffect, useRef, type ReactNode } from 'react';

/**
 * Each view's title. After the visitor acts (upload, retry, another tree), focus moves
 * here so keyboard and screen-reader users land on the new view; never on first load,
 * which would steal focus from the host page.
 */
export function ViewHeading({ children, focus }: { children: ReactNode; focus: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);
  return (
    <h2 ref={heading} tabIndex={-1} className="text-xl font-bold text-balance text-stone-900">
      {children}
    </h2>
  );
}
