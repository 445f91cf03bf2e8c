import type { CSSProperties, ReactNode } from 'react';
import { MEASURE_LINE_COLOURS } from '../../../core/measure-colours';
import { measureFromPhoto, type PhotoMeasurement, type PhotoPoint } from '../../../core/photo-measure';
import { formatDiameter, formatHeight, formatNumber, type MeasureLine } from './tree-details-draft';

/**
 * The lines measured on a photo, drawn over it: shared by the measuring tool on the upload
 * stage and the results (and so History). Points are in the photo's natural pixels; the
 * drawing scales with the photo because the frame keeps the photo's aspect ratio.
 */
export interface DrawnLine {
  line: MeasureLine;
  from: PhotoPoint;
  to: PhotoPoint;
  label: string;
}

/** One colour per line, the same in the estimator and on the PDF quote (core/measure-colours.ts). */
export const LINE_COLOURS = MEASURE_LINE_COLOURS;

/**
 * A line's label on the photo (`metres`: the reference's length, or the span measured), short enough to fit beside it on a phone: "Reference 2 m",
 * "Height 12.0 m", "Trunk 50 cm". The sizes in both units are listed under the photo.
 */
export function drawnLabel(line: MeasureLine, metres: number | null): string {
  const name = line === 'reference' ? 'Reference' : line === 'height' ? 'Height' : 'Trunk';
  if (metres === null) return name;
  if (line === 'reference') return `${name} ${formatNumber(metres)} m`;
  return line === 'height' ? `${name} ${metres.toFixed(1)} m` : `${name} ${formatNumber(metres * 100)} cm`;
}

/** The lines of a finished measurement, labelled with what they measure. */
export function measurementLines(m: PhotoMeasurement): DrawnLine[] {
  const measured = measureFromPhoto(m);
  const sizes = 'problem' in measured ? { heightM: null, diameterM: null } : measured;
  const lines: DrawnLine[] = [
    { line: 'reference', from: m.reference.top, to: m.reference.bottom, label: drawnLabel('reference', m.reference.lengthM) },
  ];
  if (m.tree) lines.push({ line: 'height', from: m.tree.top, to: m.tree.base, label: drawnLabel('height', sizes.heightM) });
  if (m.trunk) lines.push({ line: 'trunk', from: m.trunk.left, to: m.trunk.right, label: drawnLabel('trunk', sizes.diameterM) });
  return lines;
}

/** The measured sizes in words, both units: "height 12.0 m (39 ft), trunk 50 cm (20 in)". */
export function measurementSummary(m: PhotoMeasurement): string {
  const measured = measureFromPhoto(m);
  if ('problem' in measured) return measured.problem;
  const parts = [];
  if (measured.heightM !== null) parts.push(`height ${formatHeight(measured.heightM)}`);
  if (measured.diameterM !== null) parts.push(`trunk ${formatDiameter(measured.diameterM)}`);
  return parts.join(', ');
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

const percent = (value: number, of: number) => `${(value / of) * 100}%`;

function labelStyle(line: DrawnLine, width: number, height: number): CSSProperties {
  const x = (line.from.x + line.to.x) / 2;
  const y = (line.from.y + line.to.y) / 2;
  const base: CSSProperties = { left: percent(x, width), top: percent(y, height), backgroundColor: LINE_COLOURS[line.line] };
  // A mostly horizontal span (the trunk) is labelled above it; an upright one beside it, on the side with more room.
  if (Math.abs(line.to.x - line.from.x) > Math.abs(line.to.y - line.from.y)) {
    return { ...base, transform: 'translate(-50%, calc(-100% - 10px))' };
  }
  return { ...base, transform: x > width * 0.5 ? 'translate(calc(-100% - 10px), -50%)' : 'translate(10px, -50%)' };
}

/** The drawing itself: an SVG of the lines and their end marks, and a readable label on each. */
export function MeasureLines({ width, height, lines }: { width: number; height: number; lines: DrawnLine[] }) {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0">
      <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" className="absolute inset-0 size-full overflow-visible">
        {lines.map((l) => (
          <g key={l.line} data-line={l.line}>
            <line x1={l.from.x} y1={l.from.y} x2={l.to.x} y2={l.to.y} stroke="#0c0a09" strokeOpacity={0.7} strokeWidth={6} vectorEffect="non-scaling-stroke" strokeLinecap="round" />
            <line x1={l.from.x} y1={l.from.y} x2={l.to.x} y2={l.to.y} stroke={LINE_COLOURS[l.line]} strokeWidth={3} vectorEffect="non-scaling-stroke" strokeLinecap="round" />
          </g>
        ))}
      </svg>
      {lines.map((l) => (
        <span
          key={l.line}
          data-testid={`measure-label-${l.line}`}
          className="absolute rounded-md px-1.5 py-0.5 text-xs font-semibold whitespace-nowrap text-stone-950 shadow ring-1 ring-stone-950/60"
          style={labelStyle(l, width, height)}
        >
          {l.label}
        </span>
      ))}
    </div>
  );
}

/**
 * A photo in a frame of its own aspect ratio, no taller than `maxHeight` and no wider than
 * its container (times `zoom`), so whatever is drawn over it in natural pixels lands where
 * it belongs at any size.
 */
export function PhotoFrame({
  width,
  height,
  maxHeight,
  zoom = 1,
  children,
  className = '',
}: {
  width: number;
  height: number;
  maxHeight: string;
  zoom?: number;
  children: ReactNode;
  className?: string;
}) {
  const style: CSSProperties = {
    aspectRatio: `${width} / ${height}`,
    width: `calc(${zoom} * min(100%, ${maxHeight} * ${width / height}))`,
  };
  return (
    <div className={`relative shrink-0 ${className}`} style={style}>
      {children}
    </div>
  );
}

/** The results' photo with the lines the user measured on it, and the same in words beneath. */
export function MeasuredPhoto({ src, alt, measurement }: { src: string; alt: string; measurement: PhotoMeasurement }) {
  const lines = measurementLines(measurement);
  return (
    <figure className="flex flex-col items-center gap-2">
      <PhotoFrame width={measurement.imageWidth} height={measurement.imageHeight} maxHeight="20rem" className="mx-auto">
        <img src={src} alt={alt} className="absolute inset-0 size-full rounded-xl bg-stone-100 object-fill" />
        <MeasureLines width={measurement.imageWidth} height={measurement.imageHeight} lines={lines} />
      </PhotoFrame>
      <figcaption className="text-center text-xs text-stone-600">
        {`Measured on your photo against ${lowerFirst(measurement.reference.label)}: `}
        {measurementSummary(measurement)}
      </figcaption>
    </figure>
  );
}
