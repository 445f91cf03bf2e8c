import { crewDayWeather } from '../../core/weather';
import type { DayWeather } from '../../core/schedule';
import type { AppDeps } from '../deps';
import { weatherForSites, weatherKey as siteDayKey } from '../weather/weather';
import { weatherKey, type ScheduleWeather } from './schedule';

/**
 * The schedule's weather (docs/product.md, Schedule: wind against the kit): for each crew-day with
 * bookings, the highest gust and the rain at its sites during working hours from MET Norway
 * (server/weather/weather.ts, which never throws and keeps to its deadline), and the warning when
 * the gusts pass the lowest limit among the crew's kit and the team's climbing limit
 * (core/weather.ts crewDayWeather). Days past the forecast's reach, or sites it could not locate,
 * have none.
 */
export function scheduleWeather(deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>, climbingLimitMs: number): ScheduleWeather {
  return async (requests) => {
    const answer = new Map<string, DayWeather>();
    if (!deps.config.weather.on || requests.length === 0) return answer;
    const figures = await weatherForSites(
      deps,
      requests.flatMap((request) => request.sites.map((site) => ({ postcode: site.postcode, date: request.date }))),
    );
    for (const request of requests) {
      const sites = request.sites.map((site) => (site.postcode ? figures.get(siteDayKey(site.postcode, request.date)) : undefined));
      const weather = crewDayWeather(sites, request.equipment, climbingLimitMs);
      if (weather) answer.set(weatherKey(request.crewId, request.date), weather);
    }
    return answer;
  };
}
