import { Eraser, RotateCcw, ZoomIn, ZoomOut } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { MEASURE_REFERENCES, type PhotoPoint } from '../../../core/photo-measure';
import { checkMeasuredSizes } from '../../../core/plausibility';
import { ErrorAlert } from '../alert';
import { TextField } from '../text-field';
import { buttonStyles } from '../ui';
import { drawnLabel, LINE_COLOURS, MeasureLines, PhotoFrame, type DrawnLine } from './measure-lines';
import { SizeWarnings } from './size-warnings';
import {
  EMPTY_MEASURE,
  formatDiameter,
  formatHeight,
  MEASURE_LINE_ORDER,
  MEASURE_LINES,
  measuredSizes,
  measureForPhoto,
  referenceOf,
  type LinePoints,
  type MeasureDraft,
  type MeasureLine,
  type ReferenceKey,
} from './tree-details-draft';

type PointName = keyof LinePoints;

const ZOOMS = [1, 1.5, 2, 3, 4];

/** What to tap for each point, in the words of the reference chosen. */
function instruction(line: MeasureLine, point: PointName, reference: ReferenceKey): string {
  if (line === 'reference') {
    const ends: Record<ReferenceKey, [string, string]> = {
      door: ['the top of the door', 'the bottom of the door, at the threshold'],
      person: ["the top of the person's head", "the person's feet"],
      eaves: ['the eaves line, where the roof meets the wall', 'the ground below the eaves'],
      typed: ['the top of your reference', 'the bottom of your reference'],
    };
    return `Tap ${ends[reference][point === 'top' ? 0 : 1]}.`;
  }
  if (line === 'height') return point === 'top' ? 'Tap the very top of the tree.' : 'Tap the base of the trunk, where it meets the ground.';
  return point === 'left'
    ? "Tap the trunk's left edge 1.5 m above the ground."
    : "Tap the trunk's right edge at the same height.";
}

const POINT_NAMES: Record<PointName, string> = { top: 'top', bottom: 'bottom', base: 'base', left: 'left edge', right: 'right edge' };

const missingPoint = (points: LinePoints, line: MeasureLine): PointName | undefined =>
  MEASURE_LINES[line].points.find((p) => !points[p]);

const isComplete = (draft: MeasureDraft, line: MeasureLine) => missingPoint(draft.points[line], line) === undefined;

interface MeasureToolProps {
  file: File;
  value: MeasureDraft;
  onChange: (value: MeasureDraft) => void;
  /** Typed sizes win over measured ones: the tool says so when there are any. */
  typed: { height: boolean; diameter: boolean };
  /** The species chosen, so the measured sizes are checked against how it grows. */
  species?: string;
}

/**
 * "Measure on the photo": the user picks a reference of known length standing beside the
 * tree, taps its two ends, the top and base of the tree and the trunk's two edges 1.5 m
 * above the ground (where the law measures a trunk: core/protection.ts). Pointer and touch tap the photo and drag the points; the keyboard moves a cross
 * over the photo (Enter places the point) and moves placed points with the arrow keys.
 */
export function MeasureTool({ file, value, onChange, typed, species }: MeasureToolProps) {
  const instructionsId = useId();
  const keyboardHelpId = useId();
  const referenceName = useId();
  const imageRef = useRef<HTMLImageElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  /** A pointer pressed on a placed point: a drag once it moves, a tap for the next point if it does not. */
  const pressed = useRef<{ line: MeasureLine; point: PointName; x: number; y: number; moved: boolean } | null>(null);
  const [chosenLine, setChosenLine] = useState<MeasureLine | null>(null);
  const [zoom, setZoom] = useState(1);
  const [cursor, setCursor] = useState<PhotoPoint | null>(null);

  useEffect(() => {
    const url = URL.createObjectURL(file);
    if (imageRef.current) imageRef.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const loaded = value.imageWidth > 0 && value.imageHeight > 0;
  const width = loaded ? value.imageWidth : 4;
  const height = loaded ? value.imageHeight : 3;
  const activeLine =
    chosenLine && !isComplete(value, chosenLine) ? chosenLine : MEASURE_LINE_ORDER.find((l) => !isComplete(value, l)) ?? null;
  const activePoint = activeLine ? missingPoint(value.points[activeLine], activeLine) : undefined;
  const stepNumber =
    activeLine && activePoint
      ? MEASURE_LINE_ORDER.indexOf(activeLine) * 2 + (MEASURE_LINES[activeLine].points as readonly PointName[]).indexOf(activePoint) + 1
      : 0;
  const reference = referenceOf(value);
  const sizes = measuredSizes(value);
  const sizeWarnings = checkMeasuredSizes(value, species || null);

  function setPoint(line: MeasureLine, point: PointName, at: PhotoPoint | undefined) {
    const points = { ...value.points[line] };
    if (at) points[point] = { x: Math.round(Math.min(Math.max(at.x, 0), width)), y: Math.round(Math.min(Math.max(at.y, 0), height)) };
    else delete points[point];
    onChange({ ...value, points: { ...value.points, [line]: points } });
  }

  /** The natural-pixel point under a pointer, and how many natural pixels one screen pixel is. */
  function photoPoint(clientX: number, clientY: number): PhotoPoint | null {
    const rect = frameRef.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return null;
    return { x: ((clientX - rect.left) / rect.width) * width, y: ((clientY - rect.top) / rect.height) * height };
  }
  const pixelsPerScreenPixel = () => width / (frameRef.current?.getBoundingClientRect().width || width);

  function place(at: PhotoPoint) {
    if (!loaded || !activeLine || !activePoint) return;
    setPoint(activeLine, activePoint, at);
  }

  function redo(line: MeasureLine) {
    onChange({ ...value, points: { ...value.points, [line]: {} } });
    setChosenLine(line);
  }

  function onFrameKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.target !== event.currentTarget || !loaded) return;
    const here = cursor ?? { x: width / 2, y: height / 2 };
    const step = pixelsPerScreenPixel() * (event.shiftKey ? 20 : 4);
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      setCursor({ x: Math.min(Math.max(here.x + move[0], 0), width), y: Math.min(Math.max(here.y + move[1], 0), height) });
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      place(here);
    }
  }

  function onHandleKeyDown(event: KeyboardEvent<HTMLButtonElement>, line: MeasureLine, point: PointName, at: PhotoPoint) {
    const step = pixelsPerScreenPixel() * (event.shiftKey ? 10 : 1);
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      event.stopPropagation();
      setPoint(line, point, { x: at.x + move[0], y: at.y + move[1] });
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      setPoint(line, point, undefined);
      setChosenLine(line);
      frameRef.current?.focus();
    }
  }

  function onHandlePointerMove(event: PointerEvent<HTMLButtonElement>) {
    const press = pressed.current;
    if (!press) return;
    // A few pixels of wobble is still a tap.
    if (!press.moved && Math.hypot(event.clientX - press.x, event.clientY - press.y) < 4) return;
    press.moved = true;
    const at = photoPoint(event.clientX, event.clientY);
    if (at) setPoint(press.line, press.point, at);
  }

  function onHandlePointerUp(event: PointerEvent<HTMLButtonElement>) {
    const press = pressed.current;
    pressed.current = null;
    // Points close together (a trunk's two edges on a phone) overlap: a tap on one while
    // another point is wanted places that point, rather than being lost.
    if (press && !press.moved && activePoint) {
      const at = photoPoint(event.clientX, event.clientY);
      if (at) place(at);
    }
  }

  const lines: DrawnLine[] = [];
  for (const line of MEASURE_LINE_ORDER) {
    const [a, b] = MEASURE_LINES[line].points;
    const from = value.points[line][a];
    const to = value.points[line][b];
    if (from && to) lines.push({ line, from, to, label: lineLabel(line) });
  }

  function lineLabel(line: MeasureLine): string {
    const sized = sizes && 'heightM' in sizes ? sizes : { heightM: null, diameterM: null };
    if (line === 'reference') return drawnLabel(line, 'problem' in reference ? null : reference.lengthM);
    return drawnLabel(line, line === 'height' ? sized.heightM : sized.diameterM);
  }

  function measuredText(line: MeasureLine, complete: boolean): string {
    if (line === 'reference') return 'problem' in reference ? 'Length not given yet' : reference.label;
    const metres = sizes && 'heightM' in sizes ? (line === 'height' ? sizes.heightM : sizes.diameterM) : null;
    if (metres !== null) return line === 'height' ? formatHeight(metres) : formatDiameter(metres);
    return complete ? 'Needs the reference' : 'Not measured yet';
  }

  const status = activeLine && activePoint
    ? `Step ${stepNumber} of 6: ${instruction(activeLine, activePoint, value.reference)}`
    : 'All points placed. Drag a point, or select it and use the arrow keys, to adjust it.';
  const anyPoint = MEASURE_LINE_ORDER.some((l) => Object.keys(value.points[l]).length > 0);

  return (
    <div className="flex flex-col gap-4" data-testid="measure-tool">
      <fieldset className="min-w-0">
        <legend className="mb-2 text-sm font-medium text-stone-800">Reference of known height, standing beside the tree</legend>
        <div className="flex flex-wrap gap-2">
          {[...MEASURE_REFERENCES.map((r) => ({ key: r.key as ReferenceKey, label: r.label })), { key: 'typed' as const, label: 'Something else' }].map((r) => (
            <label
              key={r.key}
              className="inline-flex cursor-pointer items-center gap-2 rounded-lg border border-stone-300 bg-white px-3 py-2 text-sm text-stone-800 hover:border-stone-400 has-checked:border-green-700 has-checked:bg-green-50 has-checked:text-green-900"
            >
              <input
                type="radio"
                name={referenceName}
                checked={value.reference === r.key}
                onChange={() => onChange({ ...value, reference: r.key })}
                className="size-4 accent-green-800"
              />
              {r.label}
            </label>
          ))}
        </div>
        {value.reference === 'typed' ? (
          <TextField
            className="mt-3 max-w-xs"
            label="Reference length (m)"
            inputMode="decimal"
            autoComplete="off"
            value={value.typedLengthM}
            onChange={(event) => onChange({ ...value, typedLengthM: event.target.value })}
            error={value.typedLengthM.trim() !== '' && 'problem' in reference ? reference.problem : undefined}
            hint="Its height in metres, e.g. 2 for a 2 m pole."
          />
        ) : null}
      </fieldset>

      <div className="flex flex-col gap-2">
        {/* Room for the longest step on a phone, so the photo does not move between taps. */}
        <p id={instructionsId} className="min-h-15 text-sm font-medium text-stone-900 sm:min-h-10" aria-live="polite" data-testid="measure-step">
          {status}
        </p>
        <p className="text-xs text-stone-600">
          Tap the photo to place each point and drag a point to adjust it. Zoom in for the trunk&apos;s edges.
        </p>
        <div className="flex items-start justify-between gap-4">
          <details className="min-w-0 flex-1 text-xs text-stone-600">
            <summary className="cursor-pointer py-1.5 font-medium text-green-900">Measuring with a keyboard</summary>
            <p id={keyboardHelpId} className="mt-1">
              Tab to the photo, move the cross with the arrow keys (Shift for bigger steps) and press Enter to place the
              point. Tab on to a placed point to move it with the arrow keys, or press Delete to tap it again.
            </p>
          </details>
          <div className="flex shrink-0 items-center gap-1" role="group" aria-label="Zoom">
            <button
              type="button"
              className={`${buttonStyles.quiet} px-2 py-1.5`}
              aria-label="Zoom out"
              disabled={zoom === ZOOMS[0]}
              onClick={() => setZoom((z) => ZOOMS[Math.max(ZOOMS.indexOf(z) - 1, 0)] ?? 1)}
            >
              <ZoomOut aria-hidden="true" className="size-4" />
            </button>
            <span className="w-12 text-center text-sm text-stone-700 tabular-nums">{`${Math.round(zoom * 100)}%`}</span>
            <button
              type="button"
              className={`${buttonStyles.quiet} px-2 py-1.5`}
              aria-label="Zoom in"
              disabled={zoom === ZOOMS[ZOOMS.length - 1]}
              onClick={() => setZoom((z) => ZOOMS[Math.min(ZOOMS.indexOf(z) + 1, ZOOMS.length - 1)] ?? 1)}
            >
              <ZoomIn aria-hidden="true" className="size-4" />
            </button>
          </div>
        </div>
        <div className="max-h-[75vh] overflow-auto rounded-xl border border-stone-200 bg-stone-900">
          <PhotoFrame width={width} height={height} maxHeight="70vh" zoom={zoom} className="mx-auto">
            <div
              ref={frameRef}
              role="application"
              aria-roledescription="measuring photo"
              aria-label="Tree photo to measure on"
              aria-describedby={`${instructionsId} ${keyboardHelpId}`}
              tabIndex={0}
              // Keys do nothing until the photo has its size; assistive technology is told so.
              aria-busy={!loaded}
              data-testid="measure-photo"
              className={`absolute inset-0 touch-manipulation outline-none ${activeLine ? 'cursor-crosshair' : ''}`}
              onClick={(event) => {
                const at = photoPoint(event.clientX, event.clientY);
                if (at) place(at);
              }}
              onKeyDown={onFrameKeyDown}
              onFocus={(event) => {
                if (event.target === event.currentTarget && !cursor && loaded) setCursor({ x: width / 2, y: height / 2 });
              }}
            >
              <img
                ref={imageRef}
                alt=""
                draggable={false}
                className="absolute inset-0 size-full object-fill select-none"
                onLoad={(event) => {
                  const { naturalWidth, naturalHeight } = event.currentTarget;
                  if (naturalWidth !== value.imageWidth || naturalHeight !== value.imageHeight) {
                    // Points belong to one image: a different size means a different photo.
                    onChange(measureForPhoto(value, naturalWidth, naturalHeight));
                    // The keyboard cursor starts at the centre of this photo, shown if the frame has focus.
                    setCursor(document.activeElement === frameRef.current ? { x: naturalWidth / 2, y: naturalHeight / 2 } : null);
                  }
                }}
              />
              <MeasureLines width={width} height={height} lines={lines} />
              {/* The focus ring, drawn above the photo (an outline would be painted under it). */}
              <span aria-hidden="true" className="pointer-events-none absolute inset-0 ring-amber-400 ring-inset in-focus-visible:ring-4" />
              {cursor ? (
                <span
                  aria-hidden="true"
                  className="pointer-events-none absolute hidden size-7 -translate-1/2 in-focus-visible:block"
                  style={{ left: `${(cursor.x / width) * 100}%`, top: `${(cursor.y / height) * 100}%` }}
                >
                  <span className="absolute top-1/2 left-0 h-0.5 w-full -translate-y-1/2 bg-amber-300 ring-1 ring-stone-950" />
                  <span className="absolute top-0 left-1/2 h-full w-0.5 -translate-x-1/2 bg-amber-300 ring-1 ring-stone-950" />
                </span>
              ) : null}
            </div>
            {MEASURE_LINE_ORDER.flatMap((line) =>
              MEASURE_LINES[line].points.map((point) => {
                const at = value.points[line][point];
                if (!at) return null;
                return (
                  <button
                    key={`${line}-${point}`}
                    type="button"
                    aria-label={`${MEASURE_LINES[line].label} ${POINT_NAMES[point]}`}
                    aria-describedby={instructionsId}
                    data-testid={`measure-point-${line}-${point}`}
                    className="absolute size-5 -translate-1/2 cursor-move touch-none rounded-full border-2 border-stone-950 focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-white"
                    style={{ left: `${(at.x / width) * 100}%`, top: `${(at.y / height) * 100}%`, boxShadow: `inset 0 0 0 2px ${LINE_COLOURS[line]}` }}
                    onClick={(event) => event.stopPropagation()}
                    onKeyDown={(event) => onHandleKeyDown(event, line, point, at)}
                    onPointerDown={(event) => {
                      event.currentTarget.setPointerCapture(event.pointerId);
                      pressed.current = { line, point, x: event.clientX, y: event.clientY, moved: false };
                    }}
                    onPointerMove={onHandlePointerMove}
                    onPointerUp={onHandlePointerUp}
                    onPointerCancel={() => {
                      pressed.current = null;
                    }}
                  >
                    <span className="absolute top-1/2 left-1/2 size-1 -translate-1/2 rounded-full bg-stone-950" />
                  </button>
                );
              }),
            )}
          </PhotoFrame>
        </div>
      </div>

      {'problem' in reference && value.reference === 'typed' && value.typedLengthM.trim() === '' ? (
        <p className="text-sm text-stone-700">Type the reference&apos;s length above to measure with it.</p>
      ) : null}
      {sizes && 'problem' in sizes ? <ErrorAlert>{sizes.problem}</ErrorAlert> : null}
      <SizeWarnings title="These sizes look unlikely" warnings={sizeWarnings}>
        <p className="text-sm">
          Check the taps and the reference, and zoom in for small things. If the sizes are right, you can still use them:
          you will be asked to confirm them before a price is worked out.
        </p>
      </SizeWarnings>

      <ul className="flex flex-col gap-2" aria-label="What was measured">
        {MEASURE_LINE_ORDER.map((line) => {
          const complete = isComplete(value, line);
          const measured = measuredText(line, complete);
          const typedWins = (line === 'height' && typed.height) || (line === 'trunk' && typed.diameter);
          return (
            <li key={line} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-stone-200 px-3 py-2 text-sm">
              <span aria-hidden="true" className="size-3 shrink-0 rounded-full ring-1 ring-stone-950" style={{ backgroundColor: LINE_COLOURS[line] }} />
              <span className="font-medium text-stone-900">{line === 'trunk' ? 'Trunk diameter' : MEASURE_LINES[line].label}</span>
              <span className="text-stone-700" data-testid={`measured-${line}`}>{measured}</span>
              {typedWins ? (
                <span className="text-xs text-amber-900">
                  {`You typed a ${line === 'height' ? 'height' : 'trunk size'}: the typed one is used.`}
                </span>
              ) : null}
              <span className="ml-auto">
                {activeLine === line ? (
                  <span className="text-xs font-medium text-green-900">Tap the photo</span>
                ) : complete ? (
                  <button type="button" className={`${buttonStyles.quiet} px-2 py-1`} onClick={() => redo(line)}>
                    <RotateCcw aria-hidden="true" className="size-4" />
                    {`Redo ${line === 'trunk' ? 'trunk' : MEASURE_LINES[line].label.toLowerCase()}`}
                  </button>
                ) : (
                  <button type="button" className={`${buttonStyles.quiet} px-2 py-1`} onClick={() => setChosenLine(line)}>
                    {`Measure ${line === 'trunk' ? 'trunk' : MEASURE_LINES[line].label.toLowerCase()}`}
                  </button>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      {anyPoint ? (
        <div>
          <button
            type="button"
            className={`${buttonStyles.quiet} px-2 py-1.5`}
            onClick={() => {
              onChange({ ...value, points: EMPTY_MEASURE.points });
              setChosenLine(null);
              setCursor(null);
            }}
          >
            <Eraser aria-hidden="true" className="size-4" />
            Clear all points
          </button>
        </div>
      ) : null}
    </div>
  );
}
