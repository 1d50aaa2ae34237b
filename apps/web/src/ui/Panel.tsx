import type { LucideIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';

interface PanelProps {
  title: string;
  icon?: LucideIcon;
  /** One line under the heading. */
  description?: ReactNode;
  /** Controls beside the heading (a switch, a status). */
  actions?: ReactNode;
  className?: string;
  children?: ReactNode;
}

/** A dashboard card: a labelled region with an h2, so screen-reader users can jump between panels. */
export function Panel({ title, icon: Icon, description, actions, className = '', children }: PanelProps) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className={`flex flex-col gap-5 rounded-card border border-ink-600 bg-ink-800 p-5 shadow-card sm:p-6 ${className}`}
    >
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <h2
            id={headingId}
            className="flex items-center gap-2.5 font-display text-2xl font-bold tracking-tight uppercase italic"
          >
            {Icon && <Icon aria-hidden="true" className="size-6 shrink-0 text-accent" />}
            {title}
          </h2>
          {description && <p className="text-ink-300">{description}</p>}
        </div>
        {actions}
      </header>
      {children}
    </section>
  );
}
