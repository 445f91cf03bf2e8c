import { DEFAULT_UNIT_SYSTEM, SIZE_UNITS, type DiameterUnit, type HeightUnit, type UnitSystem } from '../../../core/units';
import type { TreeDetailsDraft } from './tree-details-draft';

/**
 * The units the tree-details form starts in: the account's (Settings), unless the user switched
 * a size's unit in this tab, which is kept for the rest of the session. A switch is not saved as
 * the account's preference: it is often one figure in the other unit (a customer's "about 40 ft"),
 * and it would silently change how History, quotes and the embed show every size; the
 * preference is changed, for good, in Settings.
 */
const SESSION_KEY = 'tree-size-units';

type Switched = Partial<{ height: HeightUnit; diameter: DiameterUnit }>;

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Storage can be refused (privacy settings): the switch then lasts as long as the form.
    return null;
  }
}

function readSwitched(): Switched {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(SESSION_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { height, diameter } = parsed as Record<string, unknown>;
    return {
      ...(height === 'ft' || height === 'm' ? { height } : {}),
      ...(diameter === 'in' || diameter === 'cm' ? { diameter } : {}),
    };
  } catch {
    return {};
  }
}

/** Remembers a unit the user chose for a size, for the next analysis in this tab. */
export function rememberSizeUnit(kind: 'height' | 'diameter', unit: HeightUnit | DiameterUnit): void {
  try {
    storage()?.setItem(SESSION_KEY, JSON.stringify({ ...readSwitched(), [kind]: unit }));
  } catch {
    // Full or refused storage: nothing to remember, nothing lost.
  }
}

/** The units a new form starts in. */
export function startingSizeUnits(preferred: UnitSystem | undefined): { height: HeightUnit; diameter: DiameterUnit } {
  const units = SIZE_UNITS[preferred ?? DEFAULT_UNIT_SYSTEM];
  const switched = readSwitched();
  return { height: switched.height ?? units.height, diameter: switched.diameter ?? units.diameter };
}

/**
 * The draft with its size units set to where a form starts, for sizes not yet given (a typed
 * number keeps the unit it was typed in).
 */
export function withStartingUnits(draft: TreeDetailsDraft, preferred: UnitSystem | undefined): TreeDetailsDraft {
  const units = startingSizeUnits(preferred);
  const height = draft.height.value.trim() === '' && draft.height.unit !== units.height ? { ...draft.height, unit: units.height } : draft.height;
  const diameter =
    draft.diameter.value.trim() === '' && draft.diameter.unit !== units.diameter ? { ...draft.diameter, unit: units.diameter } : draft.diameter;
  return height === draft.height && diameter === draft.diameter ? draft : { ...draft, height, diameter };
}
