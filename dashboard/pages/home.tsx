import { Camera, Clock, PoundSterling, ShieldCheck, TreeDeciduous } from 'lucide-react';
import type { ReactNode } from 'react';
import { ANALYSIS_COST_CREDITS } from '../../core/credits';
import { ComingSoonCard, PageTitle, SignedInLayout } from '../components/page-layout';
import { cardStyles } from '../components/ui';

function Feature({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className={`${cardStyles} flex gap-3 p-4`}>
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-green-100 text-green-800">
        {icon}
      </span>
      <div>
        <h3 className="font-semibold text-stone-900">{title}</h3>
        <p className="text-sm text-stone-700">{children}</p>
      </div>
    </li>
  );
}

/**
 * The main analysis screen. The header is complete; the upload, processing,
 * results and feedback stages take the place of the placeholder card next.
 */
export function HomePage() {
  return (
    <SignedInLayout>
      <PageTitle
        title="Professional Tree Analysis"
        subtitle="Upload one photo of a tree to estimate its species, size, work time and cost."
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <ComingSoonCard dashed icon={<Camera aria-hidden="true" className="size-6" />} title="Upload a tree photo">
          Photo analysis is arriving in the next update. You will be able to drop in a photo, add project details and get
          a full estimate. Each analysis uses {ANALYSIS_COST_CREDITS} credits.
        </ComingSoonCard>
        <ul className="flex flex-col gap-3" aria-label="What you get">
          <Feature icon={<TreeDeciduous aria-hidden="true" className="size-5" />} title="Tree details">
            Species, trunk diameter, height and wood density.
          </Feature>
          <Feature icon={<Clock aria-hidden="true" className="size-5" />} title="Time estimates">
            Cutting, preparation and cleanup times as ranges.
          </Feature>
          <Feature icon={<PoundSterling aria-hidden="true" className="size-5" />} title="Cost estimate">
            A price range at your own hourly rate, in pounds.
          </Feature>
          <Feature icon={<ShieldCheck aria-hidden="true" className="size-5" />} title="Safety first">
            Warnings for power lines, buildings and weather on every job.
          </Feature>
        </ul>
      </div>
    </SignedInLayout>
  );
}
