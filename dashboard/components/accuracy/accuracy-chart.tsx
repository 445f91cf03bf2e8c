import { useId } from 'react';
import type { AccuracyPoint } from '../../../core/accuracy';
import { errorText, formatReportDate } from './accuracy-words';

const WIDTH = 320;
const HEIGHT = 168;
const PAD = { left: 36, right: 8, top: 8, bottom: 22 };
/**
 * The top of the scale: the first of these above every error, so the middle line is a round
 * figure too. Errors past the last are drawn at the top edge: one wild job must not flatten
 * the rest, and the table has every figure.
 */
const SCALE_TOPS = [20, 40, 60, 80, 100, 150, 200];

function scaleTop(points: AccuracyPoint[]): number {
  const largest = Math.max(...points.flatMap((p) => [p.originalError ?? 0, p.calibratedError ?? 0]));
  return SCALE_TOPS.find((top) => top >= largest) ?? SCALE_TOPS.at(-1)!;
}

function path(points: AccuracyPoint[], value: (p: AccuracyPoint) => number | null, x: (i: number) => number, y: (v: number) => number) {
  let d = '';
  let pen = 'M';
  points.forEach((point, i) => {
    const v = value(point);
    if (v === null) {
      pen = 'M';
      return;
    }
    d += `${pen}${x(i).toFixed(1)},${y(v).toFixed(1)} `;
    pen = 'L';
  });
  return d.trim();
}

/**
 * Each reported tree's whole error, oldest first: the model's estimate (grey, dashed) and
 * the estimate calibrated from the trees before it (green). Inline SVG, no chart library; the
 * title and description name it for screen readers, and the page's table has the figures.
 */
export function AccuracyChart({ points }: { points: AccuracyPoint[] }) {
  const id = useId();
  const top = scaleTop(points);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (points.length === 1 ? plotWidth / 2 : (i / (points.length - 1)) * plotWidth);
  const y = (v: number) => PAD.top + plotHeight - (Math.min(v, top) / top) * plotHeight;
  const ticks = [0, top / 2, top];
  const first = points[0];
  const last = points.at(-1);
  const dots = points.length <= 40;

  return (
    <figure className="flex flex-col gap-2">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        className="h-auto w-full max-w-2xl"
      >
        <title id={`${id}-title`}>Error of each tree&apos;s estimate, oldest report first</title>
        <desc id={`${id}-desc`}>
          {`${points.length} reported trees${first && last ? ` from ${formatReportDate(first.reportedAt)} to ${formatReportDate(last.reportedAt)}` : ''}: each tree's whole error as the model estimated it (grey dashed line) and as calibrated from the trees reported before it (green line). Errors above ${top}% are drawn at the top. Every figure is in the table of trees below.`}
        </desc>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} className="stroke-stone-200" strokeWidth={1} />
            <text x={PAD.left - 4} y={y(tick) + 4} textAnchor="end" className="fill-stone-600 text-[10px]">
              {`${tick}%`}
            </text>
          </g>
        ))}
        {first && last ? (
          <>
            <text x={PAD.left} y={HEIGHT - 6} className="fill-stone-600 text-[10px]">
              {formatReportDate(first.reportedAt)}
            </text>
            {formatReportDate(last.reportedAt) !== formatReportDate(first.reportedAt) ? (
              <text x={WIDTH - PAD.right} y={HEIGHT - 6} textAnchor="end" className="fill-stone-600 text-[10px]">
                {formatReportDate(last.reportedAt)}
              </text>
            ) : null}
          </>
        ) : null}
        <path
          d={path(points, (p) => p.originalError, x, y)}
          fill="none"
          className="stroke-stone-500"
          strokeWidth={2}
          strokeDasharray="5 4"
          strokeLinejoin="round"
        />
        <path d={path(points, (p) => p.calibratedError, x, y)} fill="none" className="stroke-green-700" strokeWidth={2.5} strokeLinejoin="round" />
        {dots
          ? points.map((p, i) => (
              <g key={p.analysisId}>
                {p.originalError !== null ? <circle cx={x(i)} cy={y(p.originalError)} r={2.5} className="fill-stone-500" /> : null}
                {p.calibratedError !== null ? <circle cx={x(i)} cy={y(p.calibratedError)} r={3} className="fill-green-700" /> : null}
              </g>
            ))
          : null}
      </svg>
      <figcaption className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-stone-700">
        <span className="inline-flex items-center gap-2">
          <svg aria-hidden="true" viewBox="0 0 24 4" className="h-1 w-6">
            <line x1={0} x2={24} y1={2} y2={2} className="stroke-stone-500" strokeWidth={3} strokeDasharray="5 4" />
          </svg>
          Model&apos;s estimate
        </span>
        <span className="inline-flex items-center gap-2">
          <svg aria-hidden="true" viewBox="0 0 24 4" className="h-1 w-6">
            <line x1={0} x2={24} y1={2} y2={2} className="stroke-green-700" strokeWidth={3} />
          </svg>
          Calibrated to your crew
        </span>
      </figcaption>
    </figure>
  );
}

/** The per-tree figures behind the chart, for anyone who would rather read them. */
export function AccuracyTable({ points, kindLabel }: { points: AccuracyPoint[]; kindLabel: (p: AccuracyPoint) => string }) {
  return (
    <table className="w-full max-w-xl text-left text-sm">
      <caption className="sr-only">Each reported tree&apos;s error, oldest report first</caption>
      <thead className="text-stone-600">
        <tr>
          <th scope="col" className="py-1 pr-2 font-medium">
            Tree
          </th>
          <th scope="col" className="py-1 pr-2 text-right font-medium">
            Model
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Calibrated
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-stone-100">
        {points.map((p) => (
          <tr key={p.analysisId}>
            <th scope="row" className="py-1.5 pr-2 font-normal text-stone-800">
              {formatReportDate(p.reportedAt)}
              <span className="block text-xs text-stone-600">{kindLabel(p)}</span>
            </th>
            <td className="py-1.5 pr-2 text-right tabular-nums">{errorText(p.originalError)}</td>
            <td className="py-1.5 text-right tabular-nums">{p.calibratedError === null ? 'First tree' : errorText(p.calibratedError)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
