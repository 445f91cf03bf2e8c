import { Camera, ClipboardList, Coins, HardHat, Ruler, ShieldAlert, Wind, Zap, Users } from 'lucide-react';
import type { ReactNode, RefObject } from 'react';
import { ANALYSIS_COST_CREDITS } from '../../core/credits';
import { useVisionModel } from '../api/capabilities';
import { Dialog } from './dialog';

interface HelpDialogProps {
  open: boolean;
  onClose: () => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

function Row({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-green-100 text-green-800">
        {icon}
      </span>
      <div>
        <h3 className="font-semibold text-stone-900">{title}</h3>
        <p className="text-sm text-stone-700">{children}</p>
      </div>
    </li>
  );
}

const iconClass = 'size-4';

export function HowItWorksDialog(props: HelpDialogProps) {
  // Says what this install does: without a vision model the photo is checked, not read.
  const visionModel = useVisionModel();
  return (
    <Dialog
      {...props}
      title="How It Works"
      description={
        visionModel
          ? 'From one photo and the details you give to a time and cost estimate in under a minute.'
          : 'From the details you give or measure on your photo to a time and cost estimate in under a minute.'
      }
    >
      <ol className="flex flex-col gap-4">
        <Row icon={<Camera aria-hidden="true" className={iconClass} />} title="1. Upload a photo">
          {visionModel
            ? 'Take a clear photo with the whole tree in frame, from about its own height away. A person or a door near the trunk helps judge its size.'
            : 'Take a clear photo with the whole tree in frame, from about its own height away, with a person or a door near the trunk. The photo is checked for quality only: it is not read for species or size.'}
        </Row>
        <Row icon={<Ruler aria-hidden="true" className={iconClass} />} title="2. Give the tree's size">
          {visionModel
            ? 'The AI model reads the species and size from the photo. Type them, pick a size or measure them on the photo to use yours instead.'
            : 'Pick the species, then type the height and trunk diameter, pick the nearest sizes, or measure them on the photo against the door or person. The estimate is worked out from these.'}
        </Row>
        <Row icon={<ClipboardList aria-hidden="true" className={iconClass} />} title="3. Add the site details">
          Optionally answer the site questions: what is within falling distance, power lines, access for equipment and
          what should happen to the wood.
        </Row>
        <Row icon={<Zap aria-hidden="true" className={iconClass} />} title="4. Get your estimate">
          See the species, trunk diameter, height and where each came from, cutting, preparation and cleanup times,
          safety notes and a cost at your hourly rate. Without a size from anywhere you are asked for one, and no
          credits are used.
        </Row>
        <Row icon={<Coins aria-hidden="true" className={iconClass} />} title={`${ANALYSIS_COST_CREDITS} credits per analysis`}>
          Each analysis uses {ANALYSIS_COST_CREDITS} credits from your monthly plan. Unused credits do not carry over.
        </Row>
      </ol>
    </Dialog>
  );
}

export function SafetyGuideDialog(props: HelpDialogProps) {
  return (
    <Dialog
      {...props}
      title="Safety Guide"
      description="Estimates are for planning only. Tree work is dangerous: plan it with a professional."
    >
      <ul className="flex flex-col gap-4">
        <Row icon={<Users aria-hidden="true" className={iconClass} />} title="Consult a certified arborist">
          Always have a certified arborist assess the tree and the site before any felling or climbing work.
        </Row>
        <Row icon={<Zap aria-hidden="true" className={iconClass} />} title="Power lines">
          Keep at least 10 ft clearance from power lines. Work near lines is for competent, authorised contractors only.
        </Row>
        <Row icon={<Wind aria-hidden="true" className={iconClass} />} title="Weather">
          Do not work in winds above 25 mph, or in rain, ice or poor light.
        </Row>
        <Row icon={<HardHat aria-hidden="true" className={iconClass} />} title="Protective equipment">
          Wear a helmet with visor, ear protection, chainsaw trousers, gloves and safety boots.
        </Row>
        <Row icon={<ShieldAlert aria-hidden="true" className={iconClass} />} title="Before you start">
          In the UK, check for a Tree Preservation Order or conservation area, and for nesting birds between March and
          August.
        </Row>
      </ul>
    </Dialog>
  );
}
