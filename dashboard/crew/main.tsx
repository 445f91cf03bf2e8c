import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startCrewReads } from '../api/early-reads';
import { createQueryClient } from '../api/query-client';
import { prefetchSession } from '../api/session';
import { ChatLauncher } from '../components/chat/chat-launcher';
import { Toaster } from '../components/toast';
import { primeMyDays } from './api';
import { CrewApp } from './crew-app';
import { firstAnswersOnPage, refreshKeptAnswers, seedFirstAnswers } from './first-answers';
import '../styles.css';

/*
 * The crew's app (dashboard/crew.html): what a signed-in phone opening My days or a job sheet loads
 * (server/http/dashboard.ts, and the service worker without signal), apart from the office's entry
 * (main.tsx), so a phone on a slow signal downloads and runs only React, the query client, the
 * signed-in frame and the crew's screens (docs/performance.md, The crew's phone).
 */
const queryClient = createQueryClient();
// My days from the server holds its two answers and its first view (first-view.tsx): drawn from
// them at once. Anything else (a job sheet, the service worker's copy of the page) reads first.
const firstAnswers = firstAnswersOnPage();
const seeded = firstAnswers !== null && seedFirstAnswers(queryClient, firstAnswers);
if (seeded) refreshKeptAnswers(queryClient, firstAnswers);
const onMyDays = !seeded && startCrewReads();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

/** The longest My days' first draw waits for its reads; past it, the screen shows its spinner. */
const FIRST_DRAW_WAIT_MS = 4000;

/**
 * Without the server's answers, My days is still drawn once, complete: who is signed in and the
 * days (the phone's copies, else the server's answers already on their way) are read first, rather
 * than drawn as a spinner and redrawn as each arrives, each draw costing a slow phone's CPU a
 * tenth of a second.
 */
async function readsForFirstDraw(): Promise<void> {
  if (!onMyDays) return;
  await Promise.race([
    Promise.all([prefetchSession(queryClient), primeMyDays(queryClient)]),
    new Promise((resolve) => setTimeout(resolve, FIRST_DRAW_WAIT_MS)),
  ]);
}

void readsForFirstDraw().then(() =>
  // Over the server's first view, if any: the same screen, now live.
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <CrewApp />
        <ChatLauncher />
        <Toaster />
      </QueryClientProvider>
    </StrictMode>,
  ),
);
