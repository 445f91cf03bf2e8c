import { TreePine } from 'lucide-react';
import { useParams } from 'wouter';
import { ComingSoonCard } from '../components/page-layout';

/**
 * The public embedded estimator for a business. The real one is the
 * <tree-estimator> custom element from widget/; this stands in until then.
 */
export function EmbedPage() {
  const { slug = '' } = useParams<{ slug: string }>();
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center px-4 py-8">
      <h1 className="sr-only">Tree Estimator</h1>
      <ComingSoonCard icon={<TreePine aria-hidden="true" className="size-6" />} title="Tree time and cost estimator">
        The estimator for <span className="font-semibold">{slug}</span> is coming soon.
      </ComingSoonCard>
    </main>
  );
}
