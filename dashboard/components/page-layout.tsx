import { SAFETY_DISCLAIMER } from '../../core/analysis';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { AppHeader } from './app-header';
import { cardStyles, linkStyles } from './ui';

/** A signed-in page: the shared header, the page itself and the safety disclaimer. */
export function SignedInLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only rounded-lg bg-green-800 px-4 py-2 font-semibold text-white focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to main content
      </a>
      <AppHeader />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 outline-none sm:px-6 sm:py-10">
        {children}
      </main>
      <footer className="border-t border-stone-200 bg-white">
        <p className="mx-auto max-w-6xl px-4 py-4 text-center text-xs text-stone-600 sm:px-6">{SAFETY_DISCLAIMER}</p>
      </footer>
    </div>
  );
}

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

/** The card a screen shows until its feature arrives. */
export function ComingSoonCard({
  icon,
  title,
  children,
  dashed = false,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  /** Drawn like a drop zone, for the upload stage's place. */
  dashed?: boolean;
}) {
  const frame = dashed
    ? 'rounded-2xl border-2 border-dashed border-green-300 bg-white'
    : cardStyles;
  return (
    <section className={`${frame} flex flex-col items-center justify-center gap-3 px-6 py-10 text-center`}>
      <span className="flex size-12 items-center justify-center rounded-full bg-green-100 text-green-800">{icon}</span>
      <h2 className="text-lg font-semibold text-stone-900">{title}</h2>
      <div className="max-w-prose text-sm text-stone-700">{children}</div>
      <p className="rounded-full bg-amber-50 px-3 py-1 text-xs font-medium text-amber-900">Coming soon</p>
    </section>
  );
}
