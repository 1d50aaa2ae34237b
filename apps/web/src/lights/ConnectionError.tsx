import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { LIGHTS_TEXTS } from './lights-texts';

/** SPEC §2, §8: the 'Connection Error' box of a light provider. */
export function ConnectionError({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <div role="alert" className="flex gap-3 rounded-control border border-danger/50 bg-danger/10 px-4 py-3">
      <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-danger" />
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-semibold text-danger">{LIGHTS_TEXTS.connectionError}</p>
        <p className="break-words text-ink-100">{message}</p>
        {children}
      </div>
    </div>
  );
}
