import type { ReactNode } from 'react';
import { useDocumentTitle } from './use-document-title';

interface PageProps {
  title: string;
  /** One line under the heading. */
  lead?: ReactNode;
  /** Sits beside the heading (badges, actions). */
  aside?: ReactNode;
  width?: 'content' | 'prose';
  children?: ReactNode;
}

export function Page({ title, lead, aside, width = 'content', children }: PageProps) {
  useDocumentTitle(title);
  return (
    <div
      className={`mx-auto w-full px-gutter py-10 md:py-14 ${width === 'prose' ? 'max-w-prose' : 'max-w-content'}`}
    >
      <header className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-2">
          <h1 className="font-display text-title font-bold tracking-tight uppercase italic">{title}</h1>
          {lead && <p className="text-lead text-ink-300">{lead}</p>}
        </div>
        {aside}
      </header>
      {children}
    </div>
  );
}
