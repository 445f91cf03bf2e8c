import { Globe } from 'lucide-react';
import type { Analysis } from '../../../core/analysis';

/**
 * Marks an analysis a visitor ran on the user's website (docs/product.md, Embed widget): the
 * owner paid for it, so it is in their History, but it is not one they ran themselves. History
 * names the visitor too once they asked for a quote ("for Jo Rowan").
 */
export function EmbedSourceBadge({ analysis, leadName }: { analysis: Pick<Analysis, 'source' | 'businessName'>; leadName?: string | null }) {
  if (analysis.source !== 'embed') return null;
  return (
    <p className="inline-flex w-fit max-w-full items-center gap-1 rounded-xl bg-sky-100 px-2 py-0.5 text-xs font-medium text-sky-950">
      <Globe aria-hidden="true" className="size-3.5 shrink-0" />
      <span className="min-w-0 break-words">
        {`Web estimate${analysis.businessName ? ` · ${analysis.businessName}` : ''}${leadName ? ` · for ${leadName}` : ''}`}
      </span>
    </p>
  );
}

/**
 * What an analysis is called on its card and page: the species it was estimated for; a web
 * estimate's is the visitor's answer, "Not sure" when they named none.
 */
export function analysisTitle(analysis: Pick<Analysis, 'species' | 'source'> & { web?: { speciesAnswer: string | null } | null }): string {
  if (analysis.web) return analysis.web.speciesAnswer ?? 'Species not given';
  if (analysis.species) return analysis.species;
  return analysis.source === 'embed' ? 'Species not given' : 'Unknown species';
}
