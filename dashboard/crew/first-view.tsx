import { QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { createQueryClient } from '../api/query-client';
import { CrewApp } from './crew-app';
import { seedFirstAnswers, type FirstAnswers } from './first-answers';

export type { FirstAnswers } from './first-answers';

/**
 * My days as the crew's app draws it, as HTML, for the server to send in the page itself
 * (server/http/crew-home.ts; docs/performance.md, The crew's phone): the same components, drawn
 * from the same two answers the page carries for the phone (first-answers.ts). A phone on a slow
 * signal shows the day's jobs, each a link to its sheet, before its script has arrived; the script
 * then draws the same screen over it. Built apart for the server (vite.crew.config.ts, --ssr).
 * Null when the answers are not what the screen reads.
 */
export function renderMyDays(answers: FirstAnswers): string | null {
  const queryClient = createQueryClient();
  if (!seedFirstAnswers(queryClient, answers)) return null;
  return renderToString(
    <QueryClientProvider client={queryClient}>
      <Router ssrPath="/my-days">
        <CrewApp />
      </Router>
    </QueryClientProvider>,
  );
}
