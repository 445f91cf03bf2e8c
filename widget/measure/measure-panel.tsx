import { Check, RotateCcw, Undo2, ZoomIn, ZoomOut } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { EMPTY_MEASURE, MEASURE_LINE_ORDER, MEASURE_LINES, measureForPhoto, type MeasureDraft, type ReferenceKey } from '../../core/measure-draft';
import { MEASURE_LINE_COLOURS } from '../../core/measure-colours';
import { MEASURE_REFERENCES, type PhotoPoint } from '../../core/photo-measure';
import { checkMeasuredSizes } from '../../core/plausibility';
import { SizeWarnings } from '../components/size-warnings';
import { buttonStyles, hintStyles } from '../ui';
import { useBusinessUnits } from '../units-context';
import { anyTap, currentStep, measuredText, photoPointAt, stepText, undoLastTap, withPoint } from './measure-steps';
import { askHostToShow } from './show-in-host';

/**
 * Where the panel is drawn (docs/product.md, Embed widget, measuring):
 *  - 'dialog': a small screen (narrower than 640 px, or a touch screen): full-screen in a modal
 *    <dialog>, in the top layer above anything the host page fixes or stacks on top;
 *  - 'frame': inside our /embed/{slug} iframe, whose top layer is only the frame's box: in the
 *    page, with a photo short enough to fit a phone between a site header and a cookie banner,
 *    and the host asked to scroll the step line and the photo into view;
 *  - 'inline': a larger screen: in the page under the size questions.
 */
export type MeasureLayout = 'inline' | 'dialog' | 'frame';

export const SMALL_SCREEN = '(width < 640px), (pointer: coarse)';

export interface MeasurePanelProps {
  file: File;
  value: MeasureDraft;
  onChange: (next: MeasureDraft) => void;
  onDone: () => void;
  /** The kind of tree the visitor chose, so the sizes are checked against how it grows. */
  species?: string;
}

interface PanelProps extends MeasurePanelProps {
  layout: MeasureLayout;
}

/** One colour per line, the same in the dashboard and on the PDF quote (core/measure-colours.ts). */
const LINE_COLOURS = MEASURE_LINE_COLOURS;
const SIZE_NAMES = { height: 'Height', trunk: 'Trunk' } as const;

const ZOOMS = [1, 2, 3];
/**
 * The photo is never taller than this at 100% (px, not rem: inline styles are not rewritten for
 * the shadow root). In a frame: 360 px, so the step line and the photo (about 420 px) fit a
 * 740 px phone between a 64 px site header and a 180 px cookie banner. Full-screen: what is left
 * under the dialog's sticky top (about 110 px) and the references (about 150 px), so the whole
 * photo is on screen as it opens.
 */
const MAX_PHOTO_HEIGHT: Record<MeasureLayout, string> = {
  inline: '480px',
  frame: '360px',
  dialog: 'max(200px, 100dvh - 310px)',
};
/** The dark margin round the photo (px): a tap there is a tap on the photo's nearest edge. */
const EDGE_MARGIN_PX = 12;
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
function MeasurePanel({ file, value, onChange, onDone, species, layout }: PanelProps) {
  const headingId = useId();
  const stepId = useId();
  const keyboardHintId = useId();
  const referenceName = useId();
  const imageRef = useRef<HTMLImageElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const stepRef = useRef<HTMLParagraphElement>(null);
  const photoBoxRef = useRef<HTMLDivElement>(null);
  const crossRef = useRef<HTMLSpanElement>(null);
  /** Where a press began, so a drag (a scroll of the zoomed photo) is not taken for a tap. */
  const press = useRef<{ id: number; x: number; y: number } | null>(null);
  const [heightSkipped, setHeightSkipped] = useState(false);
  const [zoom, setZoom] = useState(1);
  const [cross, setCross] = useState<PhotoPoint | null>(null);
  /** A file the browser could not show (damaged, or not really an image): nothing to tap on. */
  const [unreadableFile, setUnreadableFile] = useState<File | null>(null);
  /** The points "Start again" cleared, until the next tap: "Undo last tap" brings them all back. */
  const [cleared, setCleared] = useState<{ points: MeasureDraft['points']; heightSkipped: boolean } | null>(null);
  const dialog = layout === 'dialog';

  useEffect(() => {
    const url = URL.createObjectURL(file);
    if (imageRef.current) imageRef.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);

  useEffect(() => {
    crossRef.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [cross, zoom]);

  const loaded = value.imageWidth > 0 && value.imageHeight > 0;

  // In a frame, once the photo has its size: the host scrolls the step line and the photo into
  // view (after the next frame's layout, so the frame's height is the one with the photo in it).
  useEffect(() => {
    if (layout !== 'frame' || !loaded) return;
    let id = requestAnimationFrame(() => {
      id = requestAnimationFrame(() => askHostToShow(stepRef.current, photoBoxRef.current));
    });
    return () => cancelAnimationFrame(id);
  }, [layout, loaded]);

  const width = loaded ? value.imageWidth : 4;
  const height = loaded ? value.imageHeight : 3;
  const step = currentStep(value, heightSkipped);
  const measured = measuredText(value, heightSkipped, useBusinessUnits());
  const tapped = anyTap(value);
  const sizeWarnings = checkMeasuredSizes(value, species || null);

  function place(at: PhotoPoint) {
    if (!loaded || !step) return;
    setCleared(null);
    onChange(withPoint(value, step, at));
  }

  /** The photo pixel under a point on screen; the margin round the photo is its nearest edge. */
  function photoPoint(clientX: number, clientY: number): PhotoPoint | null {
    const rect = frameRef.current?.getBoundingClientRect();
    return rect ? photoPointAt(rect, clientX, clientY, width, height, EDGE_MARGIN_PX) : null;
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
    if (cleared && !tapped && !heightSkipped) {
      setHeightSkipped(cleared.heightSkipped);
      onChange({ ...value, points: cleared.points });
      setCleared(null);
      return;
    }
    const previous = undoLastTap({ draft: value, heightSkipped });
    setHeightSkipped(previous.heightSkipped);
    if (previous.draft !== value) onChange(previous.draft);
    if (!previous.heightSkipped && !anyTap(previous.draft)) focusPhoto();
  }

  function startAgain() {
    setCleared({ points: value.points, heightSkipped });
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
  const maxPhotoHeight = MAX_PHOTO_HEIGHT[layout];
  const frameStyle: CSSProperties = {
    aspectRatio: `${width} / ${height}`,
    width: `calc(${zoom} * min(100%, (${maxPhotoHeight}) * ${width / height}))`,
  };
  const photoBoxStyle: CSSProperties = { maxHeight: `calc(${maxPhotoHeight} + ${2 * EDGE_MARGIN_PX + 2}px)`, padding: EDGE_MARGIN_PX };
  const buttonRow = `${buttonStyles.secondary} px-3`;
  const canUndo = tapped || heightSkipped || cleared !== null;

  const stepLine = (
    // Room for two lines, so the photo does not jump between steps at 320 px.
    <p ref={stepRef} id={stepId} aria-live="polite" className="min-h-10 text-sm font-semibold text-stone-900" data-testid="measure-step">
      {stepText(value, heightSkipped)}
    </p>
  );

  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-4" data-testid="measure-panel">
      {dialog ? (
        // Full-screen: the title, Done and the step line stay at the top while the visitor scrolls.
        <div className="sticky top-0 z-10 -mx-4 flex flex-col gap-1 border-b border-stone-200 bg-white px-4 pt-2 pb-1">
          <div className="flex items-center justify-between gap-3">
            <h3 id={headingId} className="text-base font-semibold text-stone-900">
              Measure the tree on your photo
            </h3>
            <button type="button" className={`${buttonStyles.secondary} shrink-0 px-3`} onClick={onDone}>
              <Check aria-hidden="true" className="size-4" />
              Done
            </button>
          </div>
          {stepLine}
        </div>
      ) : (
        <div className="flex flex-col gap-1">
          <h3 id={headingId} className="text-base font-semibold text-stone-900">
            Measure the tree on your photo
          </h3>
          <p className={hintStyles}>
            Something of known height standing near the tree lets us work out the tree&apos;s size from your photo.
          </p>
        </div>
      )}

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
        {/* The step line directly above the photo (in the sticky top when full-screen). */}
        {dialog ? null : stepLine}

        {/*
          The photo in a dark margin: a tap there is a tap on the nearest edge. The taps are read
          here, and a touch taken as a tap cancels the click the browser would send after it, so
          a finger on the photo's edge can never press a button beside the photo instead.
        */}
        <div
          ref={photoBoxRef}
          data-testid="measure-photo-box"
          className={`overflow-auto rounded-lg border border-stone-300 bg-stone-900 ${dialog ? 'scroll-mt-32' : ''}`}
          style={photoBoxStyle}
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerCancel={() => {
            press.current = null;
          }}
          onTouchEnd={(event) => {
            if (event.cancelable) event.preventDefault();
          }}
        >
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

        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className={buttonRow} onClick={undo} disabled={!canUndo}>
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

/** Which way to draw measuring for the estimator around `anchor` (see MeasureLayout). */
function layoutFor(anchor: Element | null): MeasureLayout {
  const root = anchor?.getRootNode();
  const inOurFrame = root instanceof ShadowRoot && root.host.hasAttribute('frame') && window.parent !== window;
  if (inOurFrame) return 'frame';
  return window.matchMedia?.(SMALL_SCREEN).matches ? 'dialog' : 'inline';
}

/** The safe-area insets of a phone with a notch or a home bar, round the full-screen dialog. */
const SAFE_AREA: CSSProperties = {
  paddingTop: 'env(safe-area-inset-top)',
  paddingRight: 'env(safe-area-inset-right)',
  paddingBottom: 'env(safe-area-inset-bottom)',
  paddingLeft: 'env(safe-area-inset-left)',
};

/**
 * Full-screen measuring: a modal <dialog> in the shadow root, shown in the top layer, so no
 * sticky header, cookie banner or z-index of the host page is over the photo; the shadow root's
 * styles apply to it (and to its ::backdrop) as to the rest of the estimator. Escape or Done
 * closes it; the points are the estimator's, so they stay.
 */
function MeasureDialog(props: MeasurePanelProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => {
      if (element?.open) element.close();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-label="Measure the tree on your photo"
      className="m-0 h-dvh max-h-none w-dvw max-w-none overflow-y-auto overscroll-contain border-0 bg-white text-stone-800 backdrop:bg-stone-950/70"
      style={SAFE_AREA}
      onClose={props.onDone}
    >
      <div className="px-4 pb-6">
        <MeasurePanel {...props} layout="dialog" />
      </div>
    </dialog>
  );
}

/**
 * "Measure the tree on your photo", in the layout that suits where the estimator is: full-screen
 * on a small screen, in the page on a larger one, and in the page with the host's help inside our
 * frame. Loaded in its own chunk when the visitor asks for it.
 */
export default function MeasureSurface(props: MeasurePanelProps) {
  const anchor = useRef<HTMLDivElement>(null);
  const [layout, setLayout] = useState<MeasureLayout | null>(null);
  // Before the first paint: the panel appears once, in its place.
  useLayoutEffect(() => setLayout(layoutFor(anchor.current)), []);
  return (
    <div ref={anchor}>
      {layout === 'dialog' ? <MeasureDialog {...props} /> : layout ? <MeasurePanel {...props} layout={layout} /> : null}
    </div>
  );
}
