import { useId } from 'react';
import { UNIT_SYSTEM_LABELS, UNIT_SYSTEMS, type UnitSystem } from '../../../core/units';
import { signedInApi } from '../../api/signed-in';
import { showToast } from '../toast';
import { cardStyles } from '../ui';
import { useSavedAtOnce } from './use-saved-at-once';

/**
 * The units the account enters and reads sizes in: where the tree-details form starts, and how
 * results, History and quotes show an analysis whose sizes were not typed. Saved as soon as it
 * is chosen, like the switch below it.
 */
export function UnitsSection({ saved }: { saved: UnitSystem }) {
  const hintId = useId();
  const { shown: chosen, saving, press } = useSavedAtOnce(
    saved,
    (units: UnitSystem) => signedInApi.settings.update({ units }),
    (settings) =>
      showToast({
        title: 'Units Saved',
        description: settings.units === 'metric' ? 'Sizes are entered and shown in metres and centimetres.' : 'Sizes are entered and shown in feet and inches.',
      }),
  );

  return (
    <section aria-labelledby="units-title" className={`${cardStyles} mt-8 p-4 sm:p-6`}>
      <h2 id="units-title" className="text-xl font-bold text-green-900">
        Units
      </h2>
      <fieldset className="mt-3" aria-describedby={hintId}>
        <legend className="font-medium text-stone-900">Enter and show tree sizes in</legend>
        <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:gap-6">
          {UNIT_SYSTEMS.map((units) => (
            <label key={units} className="flex items-center gap-2 text-stone-900">
              <input
                type="radio"
                name="units"
                className="size-5 shrink-0 accent-green-800"
                checked={chosen === units}
                disabled={saving}
                onChange={() => press(units)}
              />
              {UNIT_SYSTEM_LABELS[units]}
            </label>
          ))}
        </div>
      </fieldset>
      <p id={hintId} className="mt-2 text-sm text-stone-700">
        Where the tree details start and how results, History and quotes show sizes, with the other unit in brackets. A size
        you type in the other unit is shown as you typed it.
      </p>
    </section>
  );
}
