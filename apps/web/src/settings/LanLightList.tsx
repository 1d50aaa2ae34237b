import type { ReactNode } from 'react';
import { LAN_TEXTS as T, type CompanionLanLight } from './lan-texts';

/** One brand's lights as the account's companions report them (from the server), each connected or not. */
export function LanLightList({
  lights,
  label,
  action,
}: {
  lights: readonly CompanionLanLight[];
  label: string;
  /** Something to do with one light (Forget). */
  action?: (light: CompanionLanLight) => ReactNode;
}) {
  return (
    <ul aria-label={label} className="flex flex-col gap-2">
      {lights.map((light) => (
        <li
          key={`${light.companion.id}:${light.id}`}
          aria-label={light.label}
          className="flex flex-col gap-2 rounded-control border border-ink-600 p-3 sm:flex-row sm:items-center sm:justify-between"
        >
          <div className="flex min-w-0 flex-col gap-1">
            <p className="flex flex-wrap items-center gap-2 font-semibold break-all text-ink-100">
              {light.label}
              <span
                className={`rounded-full border px-2 py-0.5 text-xs ${light.reachable ? 'border-accent/60 text-accent' : 'border-ink-400/60 text-ink-300'}`}
              >
                {light.reachable ? T.connected : T.unreachable}
              </span>
            </p>
            <p className="text-caption text-ink-300">{T.via(light.companion.name, light.companion.online)}</p>
          </div>
          {action?.(light)}
        </li>
      ))}
    </ul>
  );
}
