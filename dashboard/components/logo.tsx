import { TreePine } from 'lucide-react';

/** The product mark and name; decorative icon, the name is real text. */
export function Logo({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2">
      <span
        className={`flex size-9 shrink-0 items-center justify-center rounded-xl ${
          inverted ? 'bg-white text-green-800' : 'bg-green-800 text-white'
        }`}
      >
        <TreePine aria-hidden="true" className="size-5" />
      </span>
      <span className={`text-lg font-bold tracking-tight ${inverted ? 'text-white' : 'text-green-900'}`}>
        TreeAnalyzer Pro
      </span>
    </span>
  );
}
