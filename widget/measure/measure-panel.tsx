import { Check, RotateCcw, Undo2, ZoomIn, ZoomOut } from 'lucide-react';
import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { EMPTY_MEASURE, MEASURE_LINE_ORDER, MEASURE_LINES, measureForPhoto, type MeasureDraft, type ReferenceKey } from '../../core/measure-draft';
import { MEASURE_LINE_COLOURS } from '../../core/measure-colours';
import { MEASURE_REFERENCES, type PhotoPoint } from '../../core/photo-measure';
import { checkMeasuredSizes } from '../../core/plausibility';
import { SizeWarnings } from '../components/size-warnings';
import { buttonStyles, hintStyles } from '../ui';
import { useBusinessUnits } from '../units-context';
import { anyTap, currentStep, measuredText, stepText, undoLastTap, withPoint } from './measure-steps';

export interface MeasurePanelProps {
  file: File;
  value: MeasureDraft;
  onChange: (next: MeasureDraft) => void;
  onDone: () => void;
  /** The kind of tree the visitor chose, so the sizes are checked against how it grows. */
  species?: string;
}

/** One colour per line, the same in the dashboard and on the PDF quote (core/measure-colours.ts). */
const LINE_COLOURS = MEASURE_LINE_COLOURS;
const SIZE_NAMES = { height: 'Height', trunk: 'Trunk' } as const;

const ZOOMS = [1, 2, 3];
/** The photo is never taller than this at 100% (px, not rem: inline styles are not rewritten for the shadow root). */
const MAX_PHOTO_HEIGHT_PX = 480;
/** A finger or a click may wobble this far (screen px) and still be a tap, not a scroll. */
const TAP_SLOP_PX = 8;
/** Arrow keys move the cross this far on screen; with Shift, further. */
const KEY_STEP_PX = 4;
const KEY_BIG_STEP_PX = 20;

const problemStyles = 'rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm font-medium text-red-800';

const percent = (value: number, of: number) => `${(value / of) * 100}%`;

/**
 * "Measure the tree on your photo": the visitor picks something of known height
 * near the tree, then taps its two ends, the tree's top and base and the trunk's two edges;
 * the sizes show as they become known. Loaded in its own chunk when the visitor asks for it.
 * Touch and mouse tap the photo; the keyboard moves a cross over it and places the point.
 */
export default function MeasurePanel({ file, value, onChange, onDone, species }: MeasurePanelProps) {
  const headingId = useId();
  const stepId = useId();
  const keyboardHintId = useId();
  const referenceName = useId();
  const imageRef = useRef<HTMLImageElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const crossRef = useRef<HTMLSpanElement>(null);
  /** Where a press began, so a drag (a scroll of the zoomed photo) is not taken for a tap. */
  const press = useRef<{ id: number; x: number; y: number } | null>(null);
  const [heightSkipped, setHeightSkipped] = useState(false);
  const [zoom, setZoom] = useState(1);
  const [cross, setCross] = useState<PhotoPoint | null>(null);
  /** A file the browser could not show (damaged, or not really an image): nothing to tap on. */
  const [unreadableFile, setUnreadableFile] = useState<File | null>(null);

  useEffect(() => {
    const url = URL.createObjectURL(file);
    if (imageRef.current) imageRef.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);

  useEffect(() => {
    crossRef.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [cross, zoom]);

  const loaded = value.imageWidth > 0 && value.imageHeight > 0;
  const width = loaded ? value.imageWidth : 4;
  const height = loaded ? value.imageHeight : 3;
  const step = currentStep(value, heightSkipped);
  const measured = measuredText(value, heightSkipped, useBusinessUnits());
  const tapped = anyTap(value);
  const sizeWarnings = checkMeasuredSizes(value, species || null);

  function place(at: PhotoPoint) {
    if (!loaded || !step) return;
    onChange(withPoint(value, step, at));
  }

  /** The photo pixel under a point on screen. */
  function photoPoint(clientX: number, clientY: number): PhotoPoint | null {
    const rect = frameRef.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return null;
    return { x: ((clientX - rect.left) / rect.width) * width, y: ((clientY - rect.top) / rect.height) * height };
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.isPrimary && event.button === 0) press.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
  }

  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    const start = press.current;
    press.current = null;
    if (!start || start.id !== event.pointerId) return;
    if (Math.hypot(event.clientX - start.x, event.clientY - start.y) > TAP_SLOP_PX) return;
    const at = photoPoint(event.clientX, event.clientY);
    if (at) place(at);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!loaded) return;
    const here = cross ?? { x: width / 2, y: height / 2 };
    const onScreen = frameRef.current?.getBoundingClientRect().width || width;
    const stepPx = (width / onScreen) * (event.shiftKey ? KEY_BIG_STEP_PX : KEY_STEP_PX);
    const moves: Record<string, [number, number]> = { ArrowLeft: [-stepPx, 0], ArrowRight: [stepPx, 0], ArrowUp: [0, -stepPx], ArrowDown: [0, stepPx] };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      setCross({ x: Math.min(Math.max(here.x + move[0], 0), width), y: Math.min(Math.max(here.y + move[1], 0), height) });
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      place(here);
    }
  }

  /** The button pressed goes away or is disabled: focus goes on to the photo, where the next tap is. */
  const focusPhoto = () => frameRef.current?.focus();

  function undo() {
    const previous = undoLastTap({ draft: value, heightSkipped });
    setHeightSkipped(previous.heightSkipped);
    if (previous.draft !== value) onChange(previous.draft);
    if (!previous.heightSkipped && !anyTap(previous.draft)) focusPhoto();
  }

  function startAgain() {
    setHeightSkipped(false);
    onChange({ ...value, points: EMPTY_MEASURE.points });
    focusPhoto();
  }

  function skipHeight() {
    setHeightSkipped(true);
    focusPhoto();
  }

  const lines = MEASURE_LINE_ORDER.flatMap((line) => {
    const [a, b] = MEASURE_LINES[line].points;
    const from = value.points[line][a];
    const to = value.points[line][b];
    return from && to ? [{ line, from, to }] : [];
  });
  const dots = MEASURE_LINE_ORDER.flatMap((line) =>
    MEASURE_LINES[line].points.flatMap((point) => {
      const at = value.points[line][point];
      return at ? [{ key: `${line}-${point}`, line, at }] : [];
    }),
  );
  const frameStyle: CSSProperties = {
    aspectRatio: `${width} / ${height}`,
    width: `calc(${zoom} * min(100%, ${MAX_PHOTO_HEIGHT_PX * (width / height)}px))`,
  };
  const buttonRow = `${buttonStyles.secondary} px-3`;

  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-4" data-testid="measure-panel">
      <div className="flex flex-col gap-1">
        <h3 id={headingId} className="text-base font-semibold text-stone-900">
          Measure the tree on your photo
        </h3>
        <p className={hintStyles}>
          Something of known height standing near the tree lets us work out the tree&apos;s size from your photo.
        </p>
      </div>

      <fieldset className="min-w-0">
        <legend className="text-sm font-semibold text-stone-800">What is standing near the tree?</legend>
        <div className="mt-2 flex flex-col gap-2">
          {MEASURE_REFERENCES.map((reference) => (
            <label
              key={reference.key}
              className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-stone-300 bg-white px-3 py-2 text-sm text-stone-800 has-checked:border-stone-900 has-checked:bg-stone-100 has-checked:font-semibold"
            >
              <input
                type="radio"
                name={referenceName}
                checked={value.reference === reference.key}
                onChange={() => onChange({ ...value, reference: reference.key as ReferenceKey })}
                className="size-4 shrink-0 accent-stone-900"
              />
              {reference.label}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="flex flex-col gap-2">
        {/* Room for two lines, so the photo does not jump between steps at 320 px. */}
        <p id={stepId} aria-live="polite" className="min-h-10 text-sm font-semibold text-stone-900" data-testid="measure-step">
          {stepText(value, heightSkipped)}
        </p>

        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className={buttonRow} onClick={undo} disabled={!tapped && !heightSkipped}>
            <Undo2 aria-hidden="true" className="size-4" />
            Undo last tap
          </button>
          <button type="button" className={buttonRow} onClick={startAgain} disabled={!tapped && !heightSkipped}>
            <RotateCcw aria-hidden="true" className="size-4" />
            Start again
          </button>
          <div className="ml-auto flex items-center gap-1" role="group" aria-label="Zoom">
            <button
              type="button"
              className={`${buttonStyles.secondary} px-3`}
              aria-label="Zoom out"
              disabled={zoom === ZOOMS[0]}
              onClick={() => setZoom((z) => ZOOMS[Math.max(ZOOMS.indexOf(z) - 1, 0)] ?? 1)}
            >
              <ZoomOut aria-hidden="true" className="size-4" />
            </button>
            <button
              type="button"
              className={`${buttonStyles.secondary} px-3`}
              aria-label="Zoom in"
              disabled={zoom === ZOOMS[ZOOMS.length - 1]}
              onClick={() => setZoom((z) => ZOOMS[Math.min(ZOOMS.indexOf(z) + 1, ZOOMS.length - 1)] ?? 1)}
            >
              <ZoomIn aria-hidden="true" className="size-4" />
            </button>
          </div>
        </div>

        <div className="max-h-[30rem] overflow-auto rounded-lg border border-stone-300 bg-stone-900">
          <div className="relative mx-auto shrink-0" style={frameStyle}>
            <div
              ref={frameRef}
              role="application"
              aria-roledescription="measuring photo"
              aria-label="Your tree photo"
              aria-describedby={`${stepId} ${keyboardHintId}`}
              // Taps do nothing until the photo has its size; assistive technology is told so.
              aria-busy={!loaded}
              tabIndex={0}
              data-testid="measure-photo"
              className={`absolute inset-0 touch-manipulation outline-none select-none ${step ? 'cursor-crosshair' : ''}`}
              onPointerDown={onPointerDown}
              onPointerUp={onPointerUp}
              onPointerCancel={() => {
                press.current = null;
              }}
              onKeyDown={onKeyDown}
              onFocus={() => {
                if (!cross && loaded) setCross({ x: width / 2, y: height / 2 });
              }}
            >
              <img
                ref={imageRef}
                alt=""
                draggable={false}
                className="absolute inset-0 size-full object-fill"
                onError={() => setUnreadableFile(file)}
                onLoad={(event) => {
                  const { naturalWidth, naturalHeight } = event.currentTarget;
                  // Points belong to one photo: a different size means a different photo.
                  if (naturalWidth !== value.imageWidth || naturalHeight !== value.imageHeight) {
                    setHeightSkipped(false);
                    setCross(null);
                    onChange(measureForPhoto(value, naturalWidth, naturalHeight));
                  }
                }}
              />
              <svg
                aria-hidden="true"
                viewBox={`0 0 ${width} ${height}`}
                preserveAspectRatio="none"
                className="pointer-events-none absolute inset-0 size-full overflow-visible"
              >
                {lines.map((l) => (
                  <g key={l.line} data-line={l.line}>
                    <line x1={l.from.x} y1={l.from.y} x2={l.to.x} y2={l.to.y} stroke="#0c0a09" strokeOpacity={0.7} strokeWidth={6} strokeLinecap="round" vectorEffect="non-scaling-stroke" />
                    <line x1={l.from.x} y1={l.from.y} x2={l.to.x} y2={l.to.y} stroke={LINE_COLOURS[l.line]} strokeWidth={3} strokeLinecap="round" vectorEffect="non-scaling-stroke" />
                  </g>
                ))}
              </svg>
              {dots.map((d) => (
                <span
                  key={d.key}
                  aria-hidden="true"
                  data-testid={`measure-point-${d.key}`}
                  className="pointer-events-none absolute size-3.5 -translate-1/2 rounded-full border-2 border-stone-950"
                  style={{ left: percent(d.at.x, width), top: percent(d.at.y, height), backgroundColor: LINE_COLOURS[d.line] }}
                />
              ))}
              {/* The focus ring, drawn over the photo (an outline would be clipped by the scrolling box). */}
              <span aria-hidden="true" className="pointer-events-none absolute inset-0 ring-amber-400 ring-inset in-focus-visible:ring-4" />
              {cross ? (
                <span
                  ref={crossRef}
                  aria-hidden="true"
                  className="pointer-events-none absolute hidden size-8 -translate-1/2 in-focus-visible:block"
                  style={{ left: percent(cross.x, width), top: percent(cross.y, height) }}
                >
                  <span className="absolute top-1/2 left-0 h-0.5 w-full -translate-y-1/2 bg-amber-300 ring-1 ring-stone-950" />
                  <span className="absolute top-0 left-1/2 h-full w-0.5 -translate-x-1/2 bg-amber-300 ring-1 ring-stone-950" />
                </span>
              ) : null}
            </div>
          </div>
        </div>

        <p id={keyboardHintId} className="text-xs text-stone-600">
          Using a keyboard? Select the photo, move the cross with the arrow keys (hold Shift for bigger steps) and press Enter
          to place the point.
        </p>

        {step?.line === 'height' && step.point === 'top' ? (
          <button type="button" className={`${buttonStyles.secondary} self-start`} onClick={skipHeight}>
            Can&apos;t see the top of the tree? Skip to the trunk
          </button>
        ) : null}
      </div>

      {unreadableFile === file ? (
        <p role="alert" className={problemStyles}>
          This photo cannot be shown here, so it cannot be measured. Try another photo of the tree.
        </p>
      ) : null}
      {measured.problem ? (
        <p role="alert" className={problemStyles}>
          {measured.problem}
        </p>
      ) : null}

      <dl className="flex flex-col gap-2 text-sm" aria-live="polite" data-testid="measure-sizes">
        {(Object.keys(SIZE_NAMES) as (keyof typeof SIZE_NAMES)[]).map((line) => (
          <div key={line} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-stone-200 px-3 py-2">
            <dt className="flex items-center gap-2 font-semibold text-stone-900">
              <span aria-hidden="true" className="size-3 shrink-0 rounded-full ring-1 ring-stone-950" style={{ backgroundColor: LINE_COLOURS[line] }} />
              {SIZE_NAMES[line]}
            </dt>
            <dd className="text-stone-700" data-testid={`measured-${line}`}>
              {measured[line]}
            </dd>
          </div>
        ))}
      </dl>

      <SizeWarnings title="These sizes look unusual" warnings={sizeWarnings}>
        <p className="text-sm">Check your taps. If the sizes are right, you can still use them: we will ask you to confirm them before the estimate.</p>
      </SizeWarnings>

      <div className="flex flex-col gap-2">
        <button type="button" className={`${buttonStyles.primary} w-full`} onClick={onDone} disabled={!measured.usable}>
          <Check aria-hidden="true" className="size-4" />
          Use these sizes
        </button>
        {!measured.usable ? <p className={`${hintStyles} text-center`}>Measure the tree&apos;s height or its trunk to use the sizes.</p> : null}
      </div>
    </section>
  );
}
