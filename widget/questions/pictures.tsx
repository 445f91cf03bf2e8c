import type { DiameterBand, HeightBand } from '../../core/questions';

/**
 * Small line drawings that help a homeowner pick a size: the tree beside a
 * two-storey house for height, a drinks can, a dinner plate and a hug for the trunk. Drawn with
 * currentColor, decorative only (each choice's text says it all), in the questions' lazy chunk.
 */

/** Tree heights in the drawing's units, the house's ridge being 26 up from the ground. */
const TREE_HEIGHT: Record<HeightBand, number> = {
  below_one_storey: 11,
  about_two_storey: 24,
  taller_than_house: 36,
  much_taller: 46,
};

const GROUND = 50;

export function HeightPicture({ band }: { band: HeightBand }) {
  const h = TREE_HEIGHT[band];
  const crownRadius = Math.max(5, h * 0.32);
  const trunkTop = GROUND - h + crownRadius * 1.4;
  return (
    <svg viewBox="0 0 72 54" aria-hidden="true" focusable="false" className="h-12 w-16 shrink-0">
      {/* The house: two storeys and a roof. */}
      <path d="M38 50V32l14-10 14 10v18z" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" className="text-stone-400" />
      <path d="M43 38h5v5h-5zM56 38h5v5h-5zM50 44h4v6h-4z" fill="currentColor" className="text-stone-300" />
      {/* The tree. */}
      <line x1="20" y1={GROUND} x2="20" y2={trunkTop} stroke="currentColor" strokeWidth="2.4" className="text-amber-800" />
      <ellipse cx="20" cy={GROUND - h + crownRadius} rx={crownRadius * 0.85} ry={crownRadius} fill="currentColor" className="text-green-700" />
      <line x1="2" y1={GROUND} x2="70" y2={GROUND} stroke="currentColor" strokeWidth="1.6" className="text-stone-500" />
    </svg>
  );
}

function Can() {
  return (
    <g className="text-stone-500" fill="none" stroke="currentColor" strokeWidth="1.6">
      <ellipse cx="36" cy="12" rx="7" ry="2.5" />
      <path d="M29 12v28c0 1.4 3.1 2.5 7 2.5s7-1.1 7-2.5V12" />
    </g>
  );
}

function Plate({ r }: { r: number }) {
  return (
    <g className="text-stone-500" fill="none" stroke="currentColor" strokeWidth="1.6">
      <circle cx="36" cy="27" r={r} />
      <circle cx="36" cy="27" r={r * 0.65} />
    </g>
  );
}

/** A trunk's cross-section, in wood colours. */
function Trunk({ r }: { r: number }) {
  return (
    <g>
      <circle cx="36" cy="27" r={r} fill="currentColor" className="text-amber-700" />
      <circle cx="36" cy="27" r={r * 0.55} fill="none" stroke="currentColor" strokeWidth="1" className="text-amber-300" />
    </g>
  );
}

export function TrunkPicture({ band }: { band: DiameterBand }) {
  return (
    <svg viewBox="0 0 72 54" aria-hidden="true" focusable="false" className="h-12 w-16 shrink-0">
      {band === 'thinner_than_can' && (
        <>
          <Can />
          <g transform="translate(-20 0)">
            <Trunk r={4} />
          </g>
        </>
      )}
      {band === 'up_to_plate' && (
        <>
          <Plate r={20} />
          <Trunk r={11} />
        </>
      )}
      {band === 'thicker_than_plate' && (
        <>
          <Trunk r={22} />
          <g className="text-white" fill="none" stroke="currentColor" strokeWidth="1.4" strokeDasharray="3 2">
            <circle cx="36" cy="27" r="15" />
          </g>
        </>
      )}
      {band === 'too_wide_to_hug' && (
        <>
          <Trunk r={23} />
          {/* Two arms that do not meet round it. */}
          <path d="M8 40c-4-10-2-22 8-28M64 40c4-10 2-22-8-28" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" className="text-stone-500" />
        </>
      )}
    </svg>
  );
}
