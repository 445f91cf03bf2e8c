/** The crew's screens inside the office's app (reached there after a sign-in, or in `npm run dev`): one chunk of their own. A phone opening them gets the crew's own app page (crew.html, main.tsx). */
export { JobSheetPage } from './job-sheet-page';
export { MyDaysPage } from './my-days-page';
