import { canAdminDelete, canAdminUpgrade } from '@flaglight/core';
import type { User } from '@flaglight/core';
import { useQuery } from '@tanstack/react-query';
import { ArrowUpCircle, Copy, Trash2 } from 'lucide-react';
import { buttonClass } from '../ui/button-styles';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Page } from '../ui/Page';
import { ADMIN_STATS_KEY, fetchAdminStats } from './admin-api';
import { ADMIN_TEXTS, deleteConfirmation } from './admin-texts';
import { useAdminUsers, type AdminUsers } from './use-admin-users';

export { ADMIN_TEXTS, deleteConfirmation } from './admin-texts';

function formatDate(value: string | null | undefined, empty: string): string {
  if (!value) return empty;
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? empty
    : date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

function formatMoney(amount: number, currency: string): string {
  // SPEC: prices are shown as A$; other currencies keep their own code.
  const prefix = currency === 'AUD' ? 'A$' : `${currency} `;
  return `${prefix}${amount.toFixed(2)}`;
}

const PLAN_STYLE: Record<User['plan'], string> = {
  trial: 'border-ink-400/60 text-ink-300',
  lifetime: 'border-flag-yellow/60 text-flag-yellow',
  pro: 'border-accent/60 text-accent',
};

export function AdminPage() {
  const admin = useAdminUsers();
  const { users, notice, error, toDelete, setToDelete } = admin;
  const list = users.data ?? [];
  return (
    <Page title="Admin" lead="Accounts, plans and revenue.">
      <div className="flex flex-col gap-8">
        <AdminStats />

        <section aria-labelledby="users-heading" className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="users-heading" className="text-xl font-semibold">
              Users
            </h2>
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              disabled={list.length === 0}
              onClick={() => void admin.copyEmails()}
            >
              <Copy aria-hidden="true" className="size-4" />
              Copy Emails
            </button>
          </div>
          <div aria-live="polite">{notice && <p className="text-ink-300">{notice}</p>}</div>
          {error && (
            <p
              role="alert"
              className="rounded-control border border-danger/50 bg-danger/10 px-4 py-3 text-danger"
            >
              {error}
            </p>
          )}
          {users.isPending ? (
            <p className="text-ink-300">Loading users…</p>
          ) : users.isError ? (
            <p role="alert" className="text-danger">
              Could not load users.
            </p>
          ) : (
            <UserTable list={list} admin={admin} />
          )}
        </section>
      </div>

      <ConfirmDialog
        open={toDelete !== null}
        title="Delete user"
        description={toDelete && deleteConfirmation(toDelete.email)}
        confirmLabel="Delete"
        onConfirm={admin.confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </Page>
  );
}

/** Users, trial and lifetime accounts, and the revenue so far. */
function AdminStats() {
  const stats = useQuery({ queryKey: ADMIN_STATS_KEY, queryFn: fetchAdminStats });
  return (
    <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      <StatCard label="Total Users" value={stats.data?.totalUsers} />
      <StatCard label="Trial Users" value={stats.data?.trialUsers} />
      <StatCard label="Lifetime Users" value={stats.data?.lifetimeUsers} />
      <StatCard
        label="Revenue"
        value={stats.data ? formatMoney(stats.data.revenue, stats.data.currency) : undefined}
      />
    </dl>
  );
}

function UserTable({ list, admin }: { list: User[]; admin: AdminUsers }) {
  return (
    <div className="overflow-x-auto rounded-card border border-ink-600 bg-ink-800">
      <table className="w-full min-w-[44rem] text-left">
        <thead className="border-b border-ink-600 text-caption tracking-wide text-ink-300 uppercase">
          <tr>
            <th scope="col" className="px-4 py-3">
              Email
            </th>
            <th scope="col" className="px-4 py-3">
              Plan
            </th>
            <th scope="col" className="px-4 py-3">
              Joined
            </th>
            <th scope="col" className="px-4 py-3">
              Last Login
            </th>
            <th scope="col" className="px-4 py-3">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {list.length === 0 ? (
            <tr>
              <td colSpan={5} className="px-4 py-8 text-center text-ink-300">
                {ADMIN_TEXTS.noUsers}
              </td>
            </tr>
          ) : (
            list.map((user) => <UserRow key={user.id} user={user} admin={admin} />)
          )}
        </tbody>
      </table>
    </div>
  );
}

/** One account: e-mail (and whether an admin), plan, dates, and what the admin may do to it. */
function UserRow({ user, admin }: { user: User; admin: AdminUsers }) {
  const { upgrade, remove } = admin;
  return (
    <tr className="border-b border-ink-600/60 last:border-0">
      <td className="px-4 py-3 break-all">
        {user.email}
        {user.isAdmin && (
          <span className="ml-2 rounded-full border border-accent/60 px-2 py-0.5 text-caption text-accent">
            Admin
          </span>
        )}
      </td>
      <td className="px-4 py-3">
        <span
          className={`rounded-full border px-2.5 py-0.5 text-caption font-semibold capitalize ${PLAN_STYLE[user.plan]}`}
        >
          {user.plan}
        </span>
      </td>
      <td className="px-4 py-3 whitespace-nowrap">{formatDate(user.createdAt, '—')}</td>
      <td className="px-4 py-3 whitespace-nowrap">{formatDate(user.lastLogin, 'Never')}</td>
      <td className="px-4 py-3">
        <div className="flex gap-2">
          {canAdminUpgrade(user) && (
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              aria-label={`Upgrade ${user.email} to lifetime`}
              disabled={upgrade.isPending}
              onClick={() => upgrade.mutate(user)}
            >
              <ArrowUpCircle aria-hidden="true" className="size-4" />
              Upgrade
            </button>
          )}
          {canAdminDelete(user) && (
            <button
              type="button"
              className={buttonClass('danger', 'sm')}
              aria-label={`Delete ${user.email}`}
              disabled={remove.isPending}
              onClick={() => admin.setToDelete(user)}
            >
              <Trash2 aria-hidden="true" className="size-4" />
              Delete
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}

function StatCard({ label, value }: { label: string; value: number | string | undefined }) {
  return (
    <div className="flex flex-col gap-1 rounded-card border border-ink-600 bg-ink-800 p-5 shadow-card">
      <dt className="text-caption tracking-wide text-ink-300 uppercase">{label}</dt>
      <dd className="font-display text-title font-bold">{value ?? '…'}</dd>
    </div>
  );
}
