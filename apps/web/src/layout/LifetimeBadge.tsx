import { Crown } from 'lucide-react';

export function LifetimeBadge() {
  return (
    <span className="inline-flex items-center gap-1.5 rounded-full border border-flag-yellow/50 bg-flag-yellow/10 px-3 py-1 text-caption font-semibold tracking-wide text-flag-yellow uppercase">
      <Crown aria-hidden="true" className="size-3.5" />
      Lifetime
    </span>
  );
}
