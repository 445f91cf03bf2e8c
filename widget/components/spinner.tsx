import { LoaderCircle } from 'lucide-react';

/** A decorative spinner; the text beside it (or a `label`) is what assistive technology reads. */
export function Spinner({ className = 'size-5' }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={`${className} motion-safe:animate-spin`} />;
}
