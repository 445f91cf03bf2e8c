import { Camera, ClipboardList, Coins, HardHat, Ruler, ShieldAlert, Wind, Zap, Users, type LucideIcon } from 'lucide-react';
import type { RefObject } from 'react';
import {
  HOW_IT_WORKS_STEPS,
  SAFETY_GUIDE_INTRO,
  SAFETY_GUIDE_ROWS,
  helpPassages,
  howItWorksIntro,
  pickPassages,
  type HelpPassage,
} from '../../core/help-text';
import { useVisionModel } from '../api/capabilities';
import { Dialog } from './dialog';

interface HelpDialogProps {
  open: boolean;
  onClose: () => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/** Each row's icon; the words come from core/help-text.ts, which the assistant reads too. */
const ICONS: Record<string, LucideIcon> = {
  'upload-photo': Camera,
  'tree-size': Ruler,
  'site-details': ClipboardList,
  'get-estimate': Zap,
  credits: Coins,
  'safety-arborist': Users,
  'safety-power-lines': Zap,
  'safety-weather': Wind,
  'safety-ppe': HardHat,
  'safety-before-you-start': ShieldAlert,
};

function Row({ passage, title }: { passage: HelpPassage; title: string }) {
  const Icon = ICONS[passage.id] ?? ShieldAlert;
  return (
    <li className="flex gap-3">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-green-100 text-green-800">
        <Icon aria-hidden="true" className="size-4" />
      </span>
      <div>
        <h3 className="font-semibold text-stone-900">{title}</h3>
        <p className="text-sm text-stone-700">{passage.text}</p>
      </div>
    </li>
  );
}

export function HowItWorksDialog(props: HelpDialogProps) {
  // Says what this install does: without a vision model the photo is checked, not read.
  const visionModel = useVisionModel();
  const passages = helpPassages({ visionModel });
  const steps = pickPassages(passages, HOW_IT_WORKS_STEPS);
  // The numbered steps of an analysis, then the credits row without a number.
  const numbered = HOW_IT_WORKS_STEPS.indexOf('credits');
  return (
    <Dialog {...props} title="How It Works" description={howItWorksIntro(visionModel)}>
      <ol className="flex flex-col gap-4">
        {steps.map((passage, index) => (
          <Row key={passage.id} passage={passage} title={index < numbered ? `${index + 1}. ${passage.title}` : passage.title} />
        ))}
      </ol>
    </Dialog>
  );
}

export function SafetyGuideDialog(props: HelpDialogProps) {
  const rows = pickPassages(helpPassages({ visionModel: false }), SAFETY_GUIDE_ROWS);
  return (
    <Dialog {...props} title="Safety Guide" description={SAFETY_GUIDE_INTRO}>
      <ul className="flex flex-col gap-4">
        {rows.map((passage) => (
          <Row key={passage.id} passage={passage} title={passage.title} />
        ))}
      </ul>
    </Dialog>
  );
}

/** The header's two help dialogs, one open at a time (app-header.tsx loads this module when one is first opened). */
export function HelpDialogs({ open, onClose, returnFocusRef }: { open: 'how-it-works' | 'safety-guide'; onClose: () => void; returnFocusRef?: RefObject<HTMLElement | null> }) {
  return (
    <>
      <HowItWorksDialog open={open === 'how-it-works'} onClose={onClose} returnFocusRef={returnFocusRef} />
      <SafetyGuideDialog open={open === 'safety-guide'} onClose={onClose} returnFocusRef={returnFocusRef} />
    </>
  );
}
