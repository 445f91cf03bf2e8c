import { Ruler } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { formatDiameter, formatHeight, measuredSizes, type MeasureDraft } from '../../core/measure-draft';
import type { UnitSystem } from '../../core/units';
import { buttonStyles } from '../ui';
import { useBusinessUnits } from '../units-context';

/** Measuring on the photo: its own chunk, fetched only when a visitor asks for it; full-screen on a small screen (widget/measure/measure-panel.tsx). */
const MeasurePanel = lazy(() => import('../measure/measure-panel'));

export const MEASURE_BUTTON = 'Measure on the photo';

interface MeasureSectionProps {
  file: File;
  value: MeasureDraft;
  onChange: (value: MeasureDraft) => void;
  /** The kind of tree chosen, for the size checks while measuring. */
  species?: string;
}

/** What the taps measured, in the visitor's words, or nothing yet. */
export function measuredSummary(measure: MeasureDraft, units: UnitSystem = 'metric'): string | null {
  const sizes = measuredSizes(measure);
  if (!sizes || 'problem' in sizes) return null;
  const parts = [sizes.heightM !== null && `about ${formatHeight(sizes.heightM, units)} tall`, sizes.diameterM !== null && `a trunk about ${formatDiameter(sizes.diameterM, units)} across`];
  const said = parts.filter(Boolean).join(', ');
  return said ? `Measured on your photo: ${said}.` : null;
}

/** "Measure on the photo": opens the measuring panel under the size questions; a measured size is used over a picked one. */
export function MeasureSection({ file, value, onChange, species }: MeasureSectionProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  /** Set when measuring closes from inside (Done, Escape, Use these sizes): focus goes back to the button. */
  const refocus = useRef(false);
  useEffect(() => {
    if (open || !refocus.current) return;
    refocus.current = false;
    button.current?.focus();
  }, [open]);
  const close = () => {
    refocus.current = true;
    setOpen(false);
  };
  const summary = measuredSummary(value, useBusinessUnits());
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-stone-50 p-3">
      <div className="flex flex-col gap-2">
        <p className="text-sm text-stone-700">
          {summary ?? 'Know something beside the tree, like a door or a person? Tap it and the tree on your photo to measure it.'}
        </p>
        <button
          ref={button}
          type="button"
          className={`${buttonStyles.secondary} self-start`}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
        >
          <Ruler aria-hidden="true" className="size-4" />
          {open ? 'Close measuring' : summary ? 'Measure again' : MEASURE_BUTTON}
        </button>
      </div>
      <div id={panelId} hidden={!open}>
        {open && (
          <Suspense fallback={<p className="text-sm text-stone-600">Opening your photo…</p>}>
            <MeasurePanel file={file} value={value} onChange={onChange} onDone={close} species={species} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
