import { CheckCircle2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useVisionModel } from '../api/capabilities';
import { Logo } from './logo';
import { cardStyles } from './ui';

/** The first point says what this install does: a photo is only read for size when a vision model is configured. */
const FROM_THE_PHOTO = 'Species, trunk diameter and height from one photo';
const FROM_THE_DETAILS = 'Estimates from the details and measurements you give; the photo is checked for quality only';

const SELLING_POINTS = [
  'Cutting, preparation and cleanup time ranges',
  'A cost estimate at your own hourly rate',
  'Safety warnings for every job',
];

/**
 * The frame of the signed-out screens: the product's promise beside the form on
 * wide screens, the form alone on a phone.
 */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const visionModel = useVisionModel();
  const points = [visionModel ? FROM_THE_PHOTO : FROM_THE_DETAILS, ...SELLING_POINTS];
  return (
    <div data-auth-layout className="flex min-h-dvh">
      <aside className="relative hidden w-[42%] max-w-xl flex-col justify-between overflow-hidden bg-green-900 p-10 text-white lg:flex">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-24 -right-24 size-96 rounded-full bg-green-700/40 blur-3xl"
        />
        <Link href="/" className="relative self-start rounded-lg">
          <Logo inverted />
        </Link>
        <div className="relative">
          <p className="text-3xl leading-tight font-bold">Tree removal estimates you can plan around.</p>
          <ul className="mt-8 flex flex-col gap-3 text-green-50">
            {points.map((point) => (
              <li key={point} className="flex items-start gap-3">
                <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-green-300" />
                {point}
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-sm text-green-100">
          Estimates are for planning only. Always consult a certified arborist.
        </p>
      </aside>

      <main className="flex flex-1 flex-col items-center justify-center px-4 py-8 sm:px-8">
        <Link href="/" className="mb-6 rounded-lg lg:hidden">
          <Logo />
        </Link>
        <div className={`${cardStyles} w-full max-w-md p-6 sm:p-8`}>
          <h1 className="text-2xl font-bold tracking-tight text-green-900">{title}</h1>
          {subtitle ? <p className="mt-1 text-sm text-stone-700">{subtitle}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
      </main>
    </div>
  );
}
