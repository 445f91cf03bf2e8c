import type { Context } from 'hono';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { FIRST_ANSWERS_ELEMENT, type FirstAnswers } from '../../core/crew-home';
import { myDaysFromToday } from '../schedule/my-days';
import { signedInAnswer } from '../team/membership';
import type { AppEnv } from './context';
import { loadSession } from './session';

type RenderMyDays = (answers: FirstAnswers) => string | null;

/**
 * My days' first view, built for the server by `vite build --config vite.crew.config.ts --mode
 * first-view` (dashboard/crew/first-view.tsx: the crew's own components). Loaded once, when first
 * asked for; undefined when that build is not there, and the crew's page is sent without it.
 *
 * A build that cannot be loaded (one being written as the server starts: `npm test` builds beside
 * the vitest suite, whose test servers serve dist/) is the same as none: `onError` is told once,
 * the page goes without it, and the next ask tries again. Never a rejection nobody awaits, which
 * ends a Node process and fails a vitest run.
 */
export function firstViewRenderer(
  file: string,
  onError: (err: unknown) => void = () => {},
): () => Promise<RenderMyDays | undefined> {
  let loaded: Promise<RenderMyDays | undefined> | undefined;
  let failures = 0;
  const load = async (): Promise<RenderMyDays | undefined> => {
    if (!existsSync(file)) return undefined;
    // A try after a failed one asks by a new address: the module loader keeps a failed module.
    const url = pathToFileURL(file).href + (failures > 0 ? `?try=${failures}` : '');
    const module = (await import(url)) as { renderMyDays?: unknown };
    if (typeof module.renderMyDays !== 'function') throw new Error(`${file} has no renderMyDays function`);
    return module.renderMyDays as RenderMyDays;
  };
  return () =>
    (loaded ??= load().catch((err: unknown) => {
      loaded = undefined;
      if (failures++ === 0) onError(err);
      return undefined;
    }));
}

/** JSON inside a page: nothing in it can end its element or start markup. */
function jsonForPage(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/**
 * The crew's home for the person signed in (docs/performance.md, The crew's phone): the crew's app
 * page with My days drawn in it by the server, and the two answers it was drawn from (who is
 * signed in, My days: the same as GET /api/auth/me and GET /api/my-days) for the phone's script to
 * carry on from without reading them again. A phone on a slow signal shows the day's jobs, each a
 * link to its sheet, as soon as the page arrives. Undefined when nobody is signed in (the session
 * cookie is cleared as for any request), so the caller sends the office's app and its sign-in.
 */
export async function crewHomePage(c: Context<AppEnv>, template: string, render: RenderMyDays): Promise<string | undefined> {
  await loadSession(c, async () => {});
  const user = c.get('user');
  const person = c.get('person');
  if (!user || !person) return undefined;
  const { db, clock } = c.var.deps;
  const now = clock.now();
  const answers: FirstAnswers = {
    me: signedInAnswer(db, person, user.id),
    myDays: myDaysFromToday(db, now, user.id, person.memberId),
    asOf: now.getTime(),
  };
  const view = render(answers);
  if (view === null || !template.includes('<div id="root"></div>')) return undefined;
  return template.replace(
    '<div id="root"></div>',
    () => `<div id="root">${view}</div>\n    <script type="application/json" id="${FIRST_ANSWERS_ELEMENT}">${jsonForPage(answers)}</script>`,
  );
}
