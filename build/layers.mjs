/**
 * The server's folders in layers, top first (docs/architecture.md, Layers): a folder may import
 * folders of its own layer or of the layers below it, never one above it, and no two folders
 * import each other. eslint.config.js turns this one list into `no-restricted-imports` rules;
 * build/layers.test.ts checks that it names every folder under server/ and that the tree has no
 * cycle. The files at server/'s top (main.ts, app.ts, cli.ts, deps.ts, config.ts, log.ts,
 * clock.ts, model-settings.ts) are not folders and are not in the list: docs/architecture.md says
 * where they stand.
 */
export const SERVER_LAYERS = [
  // What answers a request: the API's sub-apps, and the customer's quote and invoice pages (quote-page).
  ['routes', 'quote-page'],
  // The HTTP layer under them: errors, sessions, limits, public access, uploads read off the wire.
  ['http'],
  // Customers' card payments: a deposit on acceptance, "Pay by card" on invoices, their events and
  // refunds, through the demo, the install's own Stripe account or Stripe Connect.
  ['card-payments'],
  // Getting paid (invoices of a job's accepted quote, their payments and credit notes), and the
  // account's data export, which holds them; the schedule (crews by day, the bookings' estimates,
  // holds and deposit states, My days, a postponed day's moves), which reads jobs, protected trees
  // and settings and moves bookings through jobs' booking; the crew's day (the job sheet, the site
  // check and its emergency plan), which reads jobs, crews, protection, weather and the schedule's crews.
  ['account-data', 'crew-day', 'invoices', 'schedule'],
  // Capabilities that use the ones below: jobs and their quotes, the operator's views,
  // housekeeping, backups and replication.
  ['admin', 'jobs', 'ops', 'replication'],
  // A business's estimator and leads, the PDF quotes, the help assistant; protected trees (a job's
  // conservation area and Tree Preservation Orders, the surgeon's record), which jobs' booking uses;
  // the crews and their kit, which jobs are booked on.
  // The schedule's weather (MET Norway's forecasts at the sites' postcodes, which protection's postcode
  // service places).
  ['assistant', 'businesses', 'crews', 'protection', 'quotes', 'weather'],
  // An analysis from upload to stored estimate, with its payment and the embed's daily count.
  ['analysis'],
  // Who the user is and the team they are in, what they hold and pay, and their settings.
  ['accounts', 'credits', 'payments', 'settings', 'team'],
  // Shared pieces with no domain above them: images, secrets, photo storage, mail.
  ['images', 'mail', 'secrets', 'storage'],
];

/** The files that put the server together, above every folder: no folder imports them. */
export const SERVER_ENTRY_FILES = ['main', 'app', 'cli'];

/** The folders above `folder`'s layer, which it may not import. */
export function foldersAbove(folder) {
  const layer = SERVER_LAYERS.findIndex((names) => names.includes(folder));
  if (layer < 0) throw new Error(`server/${folder} has no place in build/layers.mjs SERVER_LAYERS`);
  return SERVER_LAYERS.slice(0, layer).flat();
}

/**
 * The `no-restricted-imports` options for the code of one server folder: every folder above it
 * and the entry files, each with a message naming the rule, plus `extra` (the folder's other
 * restrictions: ESLint keeps only the last options given for a rule, so they are given together).
 */
export function layerRestrictions(folder, extra = { paths: [], patterns: [] }) {
  const upward = foldersAbove(folder).map((above) => ({
    group: [`../${above}`, `../${above}/*`],
    message: `server/${folder} may not import server/${above}, a layer above it (docs/architecture.md, Layers; build/layers.mjs).`,
  }));
  const entry = {
    group: SERVER_ENTRY_FILES.map((name) => `../${name}`),
    message: 'No server folder imports the entry files (main.ts, app.ts, cli.ts) that put the server together.',
  };
  return { paths: extra.paths, patterns: [...extra.patterns, ...upward, entry] };
}
