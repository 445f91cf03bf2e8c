import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startCrewReads } from './api/early-reads';
import { createQueryClient } from './api/query-client';
import { ChatLauncher } from './components/chat/chat-launcher';
import { Toaster } from './components/toast';
import { AppRoutes } from './routes';
import './styles.css';

// The crew's code is asked for here, not in api/early-reads.ts, which the crew's code itself reads.
if (startCrewReads()) void import('./crew');
const queryClient = createQueryClient();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
      <ChatLauncher />
      <Toaster />
    </QueryClientProvider>
  </StrictMode>,
);
