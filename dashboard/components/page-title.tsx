import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { linkStyles } from './ui';

/** A screen's link back to where it belongs (the office's frame and the crew's both use it). */
export function BackLink({ href = '/', children = 'Back to Home' }: { href?: string; children?: ReactNode }) {
  return (
    <Link href={href} className={`inline-flex items-center gap-1.5 text-sm ${linkStyles}`}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      {children}
    </Link>
  );
}

export function PageTitle({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-bold tracking-tight text-green-900 sm:text-3xl">{title}</h1>
      {subtitle ? <p className="mt-1 text-stone-700">{subtitle}</p> : null}
    </div>
  );
}
