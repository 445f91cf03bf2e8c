import { Globe } from 'lucide-react';
import type { Analysis } from '../../../core/analysis';

/**
 * Marks an analysis a visitor ran on the user's website (docs/product.md, Embed widget): the
 * owner paid for it, so it is in their History, but it is not one they ran themselves.
 */
export function EmbedSourceBadge({ analysis }: { analysis: Pick<Analysis, 'source' | 'businessName'> }) {
  if (analysis.source !== 'embed') return null;
  return (
    <p className="inline-flex w-fit items-center gap-1 rounded-full bg-sky-100 px-2 py-0.5 text-xs font-medium text-sky-950">
      <Globe aria-hidden="true" className="size-3.5 shrink-0" />
      {`From your website estimator${analysis.businessName ? ` · ${analysis.businessName}` : ''}`}
    </p>
  );
}
