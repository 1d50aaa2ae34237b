import type { ReactNode } from 'react';

/** A brand's diagnostics answer, announced as a status that screen readers name by `label`. */
export function DiagnosticsReport({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="status" aria-label={label} className="flex flex-col gap-1 text-ink-300">
      {children}
    </div>
  );
}
