import type { ForecastPoint } from '../../core/weather';
import type { Config } from '../config';
import { InFlight, Limiter } from './in-flight';
import type { SiteLocation } from './site-location';

/**
 * What one install keeps in memory for its weather, made once per config (as the protection
 * lookups' clients are: server/protection/providers.ts), so two apps in one process (tests) share
 * nothing and the schedule and any other caller of one app share it all: the asks in flight (one
 * per location, one per postcode), the cap on asks at once, and the pauses after refusals.
 */
export interface WeatherState {
  forecasts: InFlight<ForecastPoint[] | null>;
  locations: InFlight<SiteLocation | null>;
  /** At most this many asks of MET Norway at once (its terms: do not overload the service). */
  limiter: Limiter;
  /** No ask of MET Norway before this time (epoch ms): set by a 429 or a 403. */
  pausedUntil: number;
  /** A location whose ask failed, and when it may be asked again. */
  failedUntil: Map<string, number>;
  /** Whether a 203 (a deprecated version) has been logged already: once is enough. */
  deprecationLogged: boolean;
}

/** Asks of MET Norway at once, per install. */
export const CONCURRENT_ASKS = 4;

const states = new WeakMap<Config, WeatherState>();

export function weatherState(config: Config): WeatherState {
  let state = states.get(config);
  if (!state) {
    state = { forecasts: new InFlight(), locations: new InFlight(), limiter: new Limiter(CONCURRENT_ASKS), pausedUntil: 0, failedUntil: new Map(), deprecationLogged: false };
    states.set(config, state);
  }
  return state;
}
