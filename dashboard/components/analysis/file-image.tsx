import { useEffect, useRef } from 'react';

/**
 * An <img> of a File the user picked. The object URL is made and revoked by the same
 * effect, so it is never leaked and survives StrictMode's double mount in development.
 */
export function FileImage({ file, alt, className }: { file: File; alt: string; className?: string }) {
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const url = URL.createObjectURL(file);
    if (ref.current) ref.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return <img ref={ref} alt={alt} className={className} />;
}
