import { CircleHelp, Info, ListTree, RotateCcw, ShieldAlert } from 'lucide-react';
import type { EmbedAnalyzeResponse } from '../../core/embed';
import type { LeadRequest } from '../api';
import { Card } from '../components/card';
import { SizeWarnings } from '../components/size-warnings';
import { ViewHeading } from '../components/view-heading';
import { buttonStyles } from '../ui';
import { IncludedCard, TimeAndCostCard, TreeAnalysisCard } from './estimate-cards';
import { LeadForm } from './lead-form';

interface ResultsViewProps {
  response: EmbedAnalyzeResponse;
  businessName: string;
  onAnother: () => void;
  submitLead: (lead: LeadRequest) => Promise<unknown>;
  onLeadSent: () => void;
  focus: boolean;
}

/**
 * Results that sell (docs/product.md, Embed widget): the price at the business's
 * rate and what it includes, a site visit where one is recommended and why, the tree and its
 * safety notes, then "Request a quote".
 */
export function ResultsView({ response, businessName, onAnother, submitLead, onLeadSent, focus }: ResultsViewProps) {
  const { analysis } = response;
  return (
    <div className="flex flex-col gap-4">
      <ViewHeading focus={focus}>Your estimate</ViewHeading>

      <div className="grid gap-4 @xl:grid-cols-2">
        <TimeAndCostCard analysis={analysis} />
        <IncludedCard analysis={analysis} />
      </div>

      {analysis.assumptions.length > 0 && (
        // What was priced for the questions left unanswered or answered "Not sure" (core/site-assumptions.ts).
        <Card title="What we assumed" icon={<CircleHelp aria-hidden="true" className="size-5 text-stone-600" />}>
          <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm text-stone-800">
            {analysis.assumptions.map((assumption) => (
              <li key={assumption}>{assumption}</li>
            ))}
          </ul>
        </Card>
      )}

      <SizeWarnings title="You said these sizes are right" warnings={analysis.sizeWarnings}>
        <p className="text-sm">They are unusual for this tree, so this estimate is rougher than most. The business will check them when they see the tree.</p>
      </SizeWarnings>

      {analysis.siteVisitReason && (
        <div className="flex gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <div>
            <p className="font-semibold">Site visit recommended</p>
            <p className="text-sm">{analysis.siteVisitReason}</p>
          </div>
        </div>
      )}

      <div className="grid gap-4 @xl:grid-cols-2">
        <TreeAnalysisCard analysis={analysis} />
        {analysis.factors.length > 0 && (
          // What the estimate took into account and assumed for the questions left unanswered.
          <Card title="How we worked it out" icon={<ListTree aria-hidden="true" className="size-5 text-stone-600" />}>
            <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm text-stone-800">
              {analysis.factors.map((factor) => (
                <li key={factor}>{factor}</li>
              ))}
            </ul>
          </Card>
        )}
        {analysis.safetyWarnings.length > 0 && (
          <Card title="Safety Considerations" icon={<ShieldAlert aria-hidden="true" className="size-5 text-amber-700" />}>
            <ul className="flex list-disc flex-col gap-1.5 pl-5 text-stone-800">
              {analysis.safetyWarnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          </Card>
        )}
      </div>

      <LeadForm analysisId={analysis.id} leadToken={response.leadToken} businessName={businessName} submit={submitLead} onSent={onLeadSent} />

      <button type="button" className={`${buttonStyles.secondary} self-start`} onClick={onAnother}>
        <RotateCcw aria-hidden="true" className="size-4" />
        Analyze Another Tree
      </button>
    </div>
  );
}
