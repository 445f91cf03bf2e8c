import { ChevronDown, Ruler } from 'lucide-react';
import { useEffect, useId, useRef, type Ref } from 'react';
import { DIAMETER_HINT } from '../../../core/questions';
import { DIAMETER_BANDS, HEIGHT_BANDS } from '../../../core/tree-details';
import { buttonStyles } from '../ui';
import type { DiameterUnit, HeightUnit, UnitSystem } from '../../../core/units';
import { MeasureTool } from './measure-tool';
import { rememberSizeUnit } from './size-units';
import { SpeciesCombobox } from './species-combobox';
import {
  formatDiameter,
  formatHeight,
  measuredSizes,
  settledSize,
  treeDetailsFromDraft,
  typedSizeHint,
  type SizeDraft,
  type TreeDetailsDraft,
} from './tree-details-draft';

interface SizeFieldProps<Unit extends string, Band extends string> {
  kind: 'height' | 'diameter';
  label: string;
  hint: string;
  units: readonly [Unit, Unit];
  bands: Record<Band, { label: string }>;
  bandLabel: string;
  value: SizeDraft<Unit, Band>;
  onChange: (value: SizeDraft<Unit, Band>) => void;
  problem: string | undefined;
  /** The size measured on the photo, when there is one. */
  measured: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
}

/** A size typed with a unit switch, or a band a homeowner can answer; choosing one clears the other. */
function SizeField<Unit extends string, Band extends string>(props: SizeFieldProps<Unit, Band>) {
  const { kind, label, hint, units, bands, bandLabel, value, onChange, problem, measured, inputRef } = props;
  const id = useId();
  const unitName = useId();
  const typed = value.value.trim() !== '';
  const converted = typed && !problem ? typedSizeHint(kind, value) : undefined;
  const noun = kind === 'height' ? 'height' : 'trunk size';
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        {label}
      </label>
      <div className="flex items-stretch gap-2">
        <input
          ref={inputRef}
          id={id}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={value.value}
          onChange={(event) => onChange({ ...value, value: event.target.value, band: '' })}
          // "14 m" typed in a field switched to ft: on leaving it, 14 with m chosen.
          onBlur={() => {
            const settled = settledSize(kind, value);
            if (settled !== value) onChange(settled);
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
          className={`w-24 min-w-0 flex-1 rounded-lg border bg-white px-3 py-2.5 text-base text-stone-900 shadow-xs focus-visible:outline-2 sm:text-sm ${
            problem ? 'border-red-600' : 'border-stone-300 hover:border-stone-400'
          }`}
        />
        <fieldset className="flex shrink-0 rounded-lg border border-stone-300 bg-stone-50 p-0.5">
          <legend className="sr-only">{`${label} unit`}</legend>
          {units.map((unit) => (
            <label
              key={unit}
              className="flex min-w-11 cursor-pointer items-center justify-center rounded-md px-2.5 text-sm font-medium text-stone-700 has-checked:bg-green-800 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-green-800"
            >
              <input
                type="radio"
                name={unitName}
                className="sr-only"
                checked={value.unit === unit}
                onChange={() => {
                  rememberSizeUnit(kind, unit as HeightUnit | DiameterUnit);
                  onChange({ ...value, unit });
                }}
              />
              {unit}
            </label>
          ))}
        </fieldset>
      </div>
      <p id={`${id}-hint`} className="text-xs text-stone-600">
        {converted ? `${converted} ` : ''}
        {hint}
      </p>
      {problem ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {problem}
        </p>
      ) : null}
      <label className="mt-1 flex flex-col gap-1.5 text-sm font-medium text-stone-800">
        {bandLabel}
        <select
          value={value.band}
          onChange={(event) => onChange({ ...value, band: event.target.value as Band | '', value: '' })}
          className="w-full min-w-0 rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base font-normal text-stone-900 shadow-xs hover:border-stone-400 focus-visible:outline-2 sm:text-sm"
        >
          <option value="">Not chosen</option>
          {(Object.entries(bands) as [Band, { label: string }][]).map(([band, { label: text }]) => (
            <option key={band} value={band}>
              {text}
            </option>
          ))}
        </select>
      </label>
      {measured ? (
        <p className="text-xs text-stone-700">
          {typed || value.band
            ? `Measured on the photo: ${measured}. Your ${noun} above is used instead.`
            : `Measured on the photo: ${measured}.`}
        </p>
      ) : null}
    </div>
  );
}

interface TreeDetailsProps {
  file: File;
  value: TreeDetailsDraft;
  onChange: (value: TreeDetailsDraft) => void;
  measureOpen: boolean;
  onMeasureOpenChange: (open: boolean) => void;
  /** Focus the group's heading on arrival (back from "needs details"). */
  focusHeading: boolean;
  visionModel: boolean;
  heightRef?: Ref<HTMLInputElement>;
  diameterRef?: Ref<HTMLInputElement>;
  /** The account's units: a measured size is shown in them first. */
  units?: UnitSystem;
}

/**
 * The upload stage's "Tree details": species, height and trunk diameter, typed, chosen as a
 * band, or measured on the photo. All optional, but without a size from somewhere the local
 * estimator has nothing to go on (it asks for one instead of guessing, at no charge).
 */
export function TreeDetails(props: TreeDetailsProps) {
  const { file, value, onChange, measureOpen, onMeasureOpenChange, focusHeading, visionModel, heightRef, diameterRef, units } = props;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const toolId = useId();
  useEffect(() => {
    if (focusHeading) headingRef.current?.focus();
  }, [focusHeading]);

  const { problems } = treeDetailsFromDraft(value);
  const sizes = measuredSizes(value.measure);
  const measuredHeight = sizes && 'heightM' in sizes && sizes.heightM !== null ? formatHeight(sizes.heightM, units) : undefined;
  const measuredDiameter = sizes && 'diameterM' in sizes && sizes.diameterM !== null ? formatDiameter(sizes.diameterM, units) : undefined;
  const typedHeight = value.height.value.trim() !== '' || value.height.band !== '';
  const typedDiameter = value.diameter.value.trim() !== '' || value.diameter.band !== '';

  return (
    <section aria-labelledby="tree-details-title" className="flex flex-col gap-4" data-testid="tree-details">
      <div>
        <h3 id="tree-details-title" ref={headingRef} tabIndex={-1} className="text-sm font-semibold text-stone-900 outline-none focus-visible:outline-2 focus-visible:outline-offset-2">
          Tree details <span className="font-normal text-stone-600">(optional)</span>
        </h3>
        <p className="text-xs text-stone-600">
          {visionModel
            ? 'The AI model reads these from the photo; anything you give here is used instead of its reading.'
            : 'The estimate is worked out from these and the site answers: give the height and trunk size, pick a size, or measure them on the photo.'}
        </p>
      </div>
      <div className="grid gap-x-6 gap-y-5 md:grid-cols-2 lg:grid-cols-3">
        <SpeciesCombobox
          value={value.species}
          onChange={(species) => onChange({ ...value, species })}
          unknownMeans={visionModel ? 'the AI model reads it from the photo' : 'the estimate assumes a dense broadleaf'}
        />
        <SizeField
          kind="height"
          label="Height"
          hint="From the ground to the top of the tree."
          units={['ft', 'm'] as const}
          bands={HEIGHT_BANDS}
          bandLabel="Or pick a height"
          value={value.height}
          onChange={(height) => onChange({ ...value, height })}
          problem={problems.height}
          measured={measuredHeight}
          inputRef={heightRef}
        />
        <SizeField
          kind="diameter"
          label="Trunk diameter"
          hint={DIAMETER_HINT}
          units={['in', 'cm'] as const}
          bands={DIAMETER_BANDS}
          bandLabel="Or pick a trunk size"
          value={value.diameter}
          onChange={(diameter) => onChange({ ...value, diameter })}
          problem={problems.diameter}
          measured={measuredDiameter}
          inputRef={diameterRef}
        />
      </div>

      <div className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-stone-50 p-3 sm:p-4">
        <div className="flex flex-col items-start gap-2 sm:flex-row sm:items-center sm:gap-4">
          <button
            type="button"
            className={buttonStyles.secondary}
            aria-expanded={measureOpen}
            aria-controls={toolId}
            onClick={() => onMeasureOpenChange(!measureOpen)}
          >
            <Ruler aria-hidden="true" className="size-4" />
            Measure on the photo
            <ChevronDown aria-hidden="true" className={`size-4 transition-transform ${measureOpen ? 'rotate-180' : ''}`} />
          </button>
          <p className="min-w-0 text-xs text-stone-700 sm:flex-1">
            {measuredHeight || measuredDiameter
              ? `Measured: ${[measuredHeight && `height ${measuredHeight}`, measuredDiameter && `trunk ${measuredDiameter}`].filter(Boolean).join(', ')}.`
              : 'Tap a door, a person or another reference beside the tree, then the tree, to measure it.'}{' '}
            A typed size wins over a measured one.
          </p>
        </div>
        <div id={toolId} hidden={!measureOpen}>
          {measureOpen ? (
            <MeasureTool
              file={file}
              value={value.measure}
              onChange={(measure) => onChange({ ...value, measure })}
              typed={{ height: typedHeight, diameter: typedDiameter }}
              species={value.species}
            />
          ) : null}
        </div>
      </div>
    </section>
  );
}
