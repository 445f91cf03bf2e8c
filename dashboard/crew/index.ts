/** The crew's screens: one chunk of their own, apart from the office's pages (vite.dashboard.config.ts checks its size). */
export { JobSheetPage } from './job-sheet-page';
export { MyDaysPage } from './my-days-page';
