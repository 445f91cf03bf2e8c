import { createContext, useContext } from 'react';
import { DEFAULT_UNIT_SYSTEM, type UnitSystem } from '../core/units';

/**
 * The business's units (Business Admin): the size questions and the estimate show sizes in them,
 * with the other in brackets. Given once at the estimator's root from the public business.
 */
export const UnitsContext = createContext<UnitSystem>(DEFAULT_UNIT_SYSTEM);

export function useBusinessUnits(): UnitSystem {
  return useContext(UnitsContext);
}
