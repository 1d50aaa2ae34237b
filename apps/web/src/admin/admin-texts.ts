export const ADMIN_TEXTS = {
  upgradeFailed: 'Failed to upgrade user',
  deleteFailed: 'Failed to delete user',
  noUsers: 'No users found',
} as const;

/** SPEC §5: the delete confirmation names the user's e-mail. */
export function deleteConfirmation(email: string): string {
  return `Are you sure you want to delete ${email}? This cannot be undone.`;
}
