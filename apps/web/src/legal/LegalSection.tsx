import type { ReactNode } from 'react';

/** One titled section of a legal or about page, with readable prose spacing. */
export function LegalSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3">
      <h2 className="font-display text-2xl font-bold tracking-tight uppercase italic">{title}</h2>
      <div className="flex flex-col gap-3 text-ink-300 [&_a]:text-accent [&_a]:underline [&_a]:underline-offset-4 [&_li]:pl-1 [&_strong]:text-ink-100 [&_ul]:list-disc [&_ul]:space-y-1.5 [&_ul]:pl-5">
        {children}
      </div>
    </section>
  );
}

export const LEGAL_UPDATED = '21 November 2026';

export function LegalUpdated() {
  return <p className="text-caption text-ink-300">Last updated {LEGAL_UPDATED}</p>;
}
