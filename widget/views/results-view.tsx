import { CalendarCheck, ChevronDown, CircleHelp, Info, Plus, Trash2, Trees } from 'lucide-react';
import { LEAD_MAX_TREES } from '../../core/embed';
import type { EmbedAnalyzeResponse } from '../../core/embed-api';
import { guidePriceText, sumGuides } from '../../core/homeowner-guide';
import { heightText } from '../../core/units';
import type { LeadRequest } from '../api';
import { Card } from '../components/card';
import { SizeWarnings } from '../components/size-warnings';
import { ViewHeading } from '../components/view-heading';
import type { LeadDraft, PricedTree } from '../lead-draft';
import { buttonStyles, cardStyles } from '../ui';
import { useBusinessUnits } from '../units-context';
import { IncludedCard, MadeUpRows, TreeCard } from './estimate-cards';
import { LeadForm } from './lead-form';

export interface ResultsViewProps {
  /** The tree just priced. */
  response: EmbedAnalyzeResponse;
  /** Every tree priced in this visit, this one included. */
  trees: PricedTree[];
  businessName: string;
  onAddTree: () => void;
  onRemoveTree: (analysisId: number) => void;
  lead: {
    draft: LeadDraft;
    onDraft: (update: (draft: LeadDraft) => LeadDraft) => void;
    sent: boolean;
    submit: (lead: Omit<LeadRequest, 'trees'>) => Promise<unknown>;
    siteNote?: (postcode: string, signal?: AbortSignal) => Promise<string | null>;
    onSent: () => void;
  };
  focus: boolean;
}

/**
 * The guide price in a homeowner's words (docs/product.md, Embed widget, The guide price): the
 * business's rounded price, what it includes and what was assumed, the next step and why, the
 * tree, and "How the price is made up" behind a tap; then every tree of the visit with the total,
 * "Add another tree", and one request for them all. Its own chunk, fetched while the estimate is
 * being made.
 */
export default function ResultsView({ response, trees, businessName, onAddTree, onRemoveTree, lead, focus }: ResultsViewProps) {
  const { analysis } = response;
  const { guide } = analysis;
  return (
    <div className="flex flex-col gap-4">
      <ViewHeading focus={focus}>Your guide price</ViewHeading>

      <section className={cardStyles} aria-labelledby="guide-price">
        <p className="text-sm text-stone-700">{trees.length > 1 ? `Tree ${trees.length}: ${treeName(response)}` : treeName(response)}</p>
        <p id="guide-price" className="text-2xl font-bold text-stone-900">
          {guide.price ? guidePriceText(guide.price) : `${businessName} will price the work when they see the tree`}
        </p>
        {guide.price && <p className="mt-1 text-sm text-stone-600">A guide price from {businessName}, rounded.</p>}
      </section>

      <NextStep guide={guide} />

      <IncludedCard analysis={analysis} />

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
        <p className="text-sm">They are unusual for this tree, so this guide price is rougher than most. The business will check them when they see the tree.</p>
      </SizeWarnings>

      <TreeCard analysis={analysis} />

      {guide.madeUp.length > 0 && (
        <details className={`${cardStyles} group`}>
          <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 font-semibold text-stone-900 [&::-webkit-details-marker]:hidden">
            How the price is made up
            <ChevronDown aria-hidden="true" className="size-5 shrink-0 text-stone-600 transition-transform group-open:rotate-180" />
          </summary>
          <div className="mt-2">
            <MadeUpRows rows={guide.madeUp} />
          </div>
        </details>
      )}

      {guide.goodToKnow.length > 0 && (
        <Card title="Good to know" icon={<Info aria-hidden="true" className="size-5 text-stone-600" />}>
          <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm text-stone-800">
            {guide.goodToKnow.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </Card>
      )}

      <TreeList trees={trees} current={analysis.id} onAddTree={onAddTree} onRemoveTree={onRemoveTree} />

      <LeadForm treeCount={trees.length} businessName={businessName} {...lead} />
    </div>
  );
}

/** "English oak, about 12 m tall", or "Tree, kind not sure". */
function useTreeName() {
  const units = useBusinessUnits();
  return (tree: PricedTree) => {
    const { species, height, chosenBands, enteredSizes } = tree.analysis;
    const kind = species || 'Kind not sure';
    if (chosenBands.height) return `${kind}, ${chosenBands.height} tall`;
    return height != null ? `${kind}, about ${heightText(height, units, enteredSizes?.height)} tall` : kind;
  };
}

function treeName(tree: PricedTree): string {
  return tree.analysis.species || 'Your tree';
}

/** The business's next step: a visit and why (in the visitor's words), or a confirmation. */
function NextStep({ guide }: { guide: EmbedAnalyzeResponse['analysis']['guide'] }) {
  const { visit, heading, reasons } = guide.nextStep;
  return (
    <section
      aria-labelledby="next-step"
      className={`flex gap-3 rounded-xl border p-4 ${visit ? 'border-amber-300 bg-amber-50 text-amber-950' : 'border-stone-200 bg-stone-50 text-stone-900'}`}
    >
      <CalendarCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0">
        <h3 id="next-step" className="font-semibold">
          {heading}
        </h3>
        {reasons.length > 0 && (
          <ul className="mt-1 flex list-disc flex-col gap-1 pl-5 text-sm">
            {reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** Every tree of the visit with its guide price, the total, and "Add another tree". */
function TreeList({ trees, current, onAddTree, onRemoveTree }: { trees: PricedTree[]; current: number; onAddTree: () => void; onRemoveTree: (id: number) => void }) {
  const name = useTreeName();
  const total = sumGuides(trees.map((tree) => tree.analysis.guide.price));
  const full = trees.length >= LEAD_MAX_TREES;
  return (
    <Card title={trees.length > 1 ? `${trees.length} trees to quote` : 'Trees to quote'} icon={<Trees aria-hidden="true" className="size-5 text-stone-600" />}>
      <ol className="flex flex-col" aria-label="Trees priced">
        {trees.map((tree, index) => (
          <li key={tree.analysis.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-stone-200 py-2 first:border-t-0">
            <div className="min-w-0 flex-1 basis-40">
              <p className="font-semibold text-stone-900">
                Tree {index + 1}
                {tree.analysis.id === current && trees.length > 1 && <span className="font-normal text-stone-600"> (just priced)</span>}
              </p>
              <p className="text-sm text-stone-700">{name(tree)}</p>
            </div>
            <p className="font-semibold whitespace-nowrap text-stone-900">{tree.analysis.guide.price ? guidePriceText(tree.analysis.guide.price) : 'Priced on a visit'}</p>
            {trees.length > 1 && (
              <button
                type="button"
                className={`${buttonStyles.secondary} min-h-11 px-3`}
                aria-label={`Remove tree ${index + 1}`}
                onClick={() => onRemoveTree(tree.analysis.id)}
              >
                <Trash2 aria-hidden="true" className="size-4" />
              </button>
            )}
          </li>
        ))}
      </ol>
      {trees.length > 1 && total && (
        <p className="mt-2 flex flex-wrap justify-between gap-x-3 border-t-2 border-stone-300 pt-2 font-bold text-stone-900">
          <span>Total</span>
          <span data-testid="trees-total">{guidePriceText(total)}</span>
        </p>
      )}
      <button type="button" className={`${buttonStyles.secondary} mt-3 w-full`} onClick={onAddTree} disabled={full}>
        <Plus aria-hidden="true" className="size-4" />
        Add another tree
      </button>
      {full && <p className="mt-1 text-sm text-stone-600">One request takes up to {LEAD_MAX_TREES} trees.</p>}
    </Card>
  );
}
