import { DoorOpen, Footprints, Maximize } from 'lucide-react';
import type { ReactNode } from 'react';

function Tip({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <li className="flex items-start gap-2.5">
      <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-green-100 text-green-800">{icon}</span>
      <span className="pt-0.5">{children}</span>
    </li>
  );
}

/** Photo guidance: what makes a photo the estimate can use. */
export function PhotoGuidance() {
  return (
    <section aria-labelledby="photo-guidance-title" className="rounded-2xl border border-stone-200 bg-white p-4 text-sm text-stone-700">
      <h3 id="photo-guidance-title" className="mb-3 font-semibold text-stone-900">
        For the best estimate
      </h3>
      <ul className="flex flex-col gap-2.5">
        <Tip icon={<Maximize aria-hidden="true" className="size-4" />}>
          Get the whole tree in frame, from the base of the trunk to the top.
        </Tip>
        <Tip icon={<Footprints aria-hidden="true" className="size-4" />}>
          Stand back about as far from the tree as it is tall.
        </Tip>
        <Tip icon={<DoorOpen aria-hidden="true" className="size-4" />}>
          Include a person or a door near the trunk, so its size can be judged.
        </Tip>
      </ul>
    </section>
  );
}
