import { hospitalsSchema, SITE_CHECK_LIMITS } from '../../../core/crew-day';

/*
 * The Hospitals (A&E) list in Settings as typed (docs/product.md, The crew's day, The site check):
 * rows of a name and a postcode, checked with the server's own schema before saving.
 */

export interface HospitalRow {
  name: string;
  postcode: string;
}

export type HospitalErrors = Record<number, Partial<Record<keyof HospitalRow, string>>>;

export const HOSPITALS_MESSAGES = {
  full: `At most ${SITE_CHECK_LIMITS.hospitals} hospitals`,
} as const;

/**
 * The list to send: rows left wholly empty are dropped (an added row not filled in); the others
 * checked as the server checks them, each error on its row (the index in `rows`) and field.
 */
export function hospitalsToSave(rows: readonly HospitalRow[]): { hospitals: HospitalRow[] } | { errors: HospitalErrors; message?: string } {
  const kept = rows.map((row, index) => ({ row, index })).filter(({ row }) => row.name.trim() !== '' || row.postcode.trim() !== '');
  const checked = hospitalsSchema.safeParse(kept.map(({ row }) => row));
  if (checked.success) return { hospitals: checked.data };
  const errors: HospitalErrors = {};
  let message: string | undefined;
  for (const issue of checked.error.issues) {
    const [at, field] = issue.path;
    if (typeof at === 'number' && (field === 'name' || field === 'postcode')) {
      const index = kept[at]!.index;
      (errors[index] ??= {})[field] ??= issue.message;
    } else message ??= issue.message;
  }
  return { errors, message };
}
