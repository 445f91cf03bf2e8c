/**
 * Who did something, in the job's and invoice's history (docs/product.md, Team): " by Sam Field",
 * or "" when the answer names nobody. The server leaves every `…By` name out for a team that has
 * only ever had one person (server/team/names.ts teamNamesOf), so a solo owner's screens read as
 * they did before teams without the dashboard asking how big the team is; null is something no
 * person did (the customer, a card payment online, a Stripe event, background work).
 */
export const byPerson = (name: string | null | undefined): string => (name ? ` by ${name}` : '');

/** ", recorded by Ana Ruiz" after a payment's words; "" as byPerson. */
export const recordedBy = (name: string | null | undefined): string => (name ? `, recorded by ${name}` : '');
