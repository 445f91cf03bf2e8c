/**
 * A JSON object (not null, not an array): the first check of every hand-written reader of an
 * answer or a message, where zod would be too heavy for a first load (the widget's budgeted
 * bundle, a guest's dashboard page).
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
