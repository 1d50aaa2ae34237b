import type { User } from '@flaglight/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ADMIN_USERS_KEY, deleteUser, fetchAdminUsers, upgradeUserToLifetime } from './admin-api';
import { ADMIN_TEXTS } from './admin-texts';

/**
 * The admin's user list and what can be done to it: upgrade to lifetime, delete (after a
 * confirmation naming the user), copy every e-mail. Each says how it went in `notice` or `error`.
 */
export function useAdminUsers() {
  const queryClient = useQueryClient();
  const users = useQuery({ queryKey: ADMIN_USERS_KEY, queryFn: fetchAdminUsers });
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<User | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin'] });
  const upgrade = useMutation({
    mutationFn: (user: User) => upgradeUserToLifetime(user.id),
    onMutate: () => setError(null),
    onSuccess: (_data, user) => setNotice(`${user.email} now has lifetime access.`),
    onError: () => setError(ADMIN_TEXTS.upgradeFailed),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (user: User) => deleteUser(user.id),
    onMutate: () => setError(null),
    onSuccess: (_data, user) => setNotice(`${user.email} was deleted.`),
    onError: () => setError(ADMIN_TEXTS.deleteFailed),
    onSettled: refresh,
  });

  async function copyEmails() {
    const emails = (users.data ?? []).map((user) => user.email).join(', ');
    try {
      await navigator.clipboard.writeText(emails);
      setNotice(`Copied ${users.data?.length ?? 0} emails to the clipboard.`);
    } catch (failure) {
      console.warn('Clipboard write failed', failure);
      setNotice('Could not copy to the clipboard.');
    }
  }

  const confirmDelete = () => {
    if (toDelete) remove.mutate(toDelete);
    setToDelete(null);
  };

  return { users, error, notice, upgrade, remove, copyEmails, toDelete, setToDelete, confirmDelete };
}

export type AdminUsers = ReturnType<typeof useAdminUsers>;
