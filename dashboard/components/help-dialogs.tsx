import { Camera, ClipboardList, Coins, HardHat, ShieldAlert, Wind, Zap, Users } from 'lucide-react';
import type { ReactNode, RefObject } from 'react';
import { ANALYSIS_COST_CREDITS } from '../../core/credits';
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
  return (
    <Dialog {...props} title="How It Works" description="From one photo to a time and cost estimate in under a minute.">
      <ol className="flex flex-col gap-4">
        <Row icon={<Camera aria-hidden="true" className={iconClass} />} title="1. Upload a photo">
          Take a clear photo with the whole tree in frame, from about its own height away. A person or a door near the
          trunk helps judge its size.
        </Row>
        <Row icon={<ClipboardList aria-hidden="true" className={iconClass} />} title="2. Add the details">
          Optionally describe the site: what is within falling distance, power lines, access for equipment and what
          should happen to the wood.
        </Row>
        <Row icon={<Zap aria-hidden="true" className={iconClass} />} title="3. Get your estimate">
          See the species, trunk diameter, height, cutting, preparation and cleanup times, safety notes and a cost
          at your hourly rate.
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
