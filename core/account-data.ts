import { z } from 'zod';

/** Settings, "Your data" (docs/product.md, Accounts; UK GDPR articles 15, 17 and 20). */
export const ACCOUNT_EXPORT_PATH = '/api/account/export';
export const ACCOUNT_DELETED_MESSAGE = 'Your account and all its data have been deleted.';
export const DELETE_PASSWORD_REQUIRED = 'Enter your password to confirm';
export const DELETE_PASSWORD_WRONG = 'That password is not right. Your account has not been deleted.';

export const deleteAccountSchema = z.object({
  password: z.string().min(1, DELETE_PASSWORD_REQUIRED).max(1024),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
