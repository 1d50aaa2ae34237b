import type { LinkedDevice } from '@flaglight/contract';
import type { ReactNode } from 'react';
import { useCompanionList } from '../companion/use-companions';
import { FormMessage } from '../login/FormField';
import { LAN_TEXTS } from './lan-texts';
import { NoCompanionLinked } from './NoCompanionLinked';

/** What a brand the companion drives is, and the steps that set it up. */
export function BrandIntro({ intro, setup }: { intro: string; setup?: readonly string[] }) {
  return (
    <>
      <p className="text-ink-300">{intro}</p>
      {setup && (
        <ol className="flex list-decimal flex-col gap-1 pl-5 text-ink-300">
          {setup.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      )}
    </>
  );
}

/**
 * The body every brand the desktop companion drives shares: its intro, the account's companions
 * (from the server, never by asking 127.0.0.1 on load, DESIGN §9) while they load or when none is
 * linked, and the brand's own part (`children`) once at least one is.
 */
export function LanBrandFrame({
  intro,
  setup,
  footer,
  children,
}: {
  intro: string;
  setup?: readonly string[];
  /** Shown after the rest whatever the companions (a note, a dialog). */
  footer?: ReactNode;
  children: (devices: LinkedDevice[]) => ReactNode;
}) {
  const devices = useCompanionList();
  return (
    <div className="flex flex-col gap-4">
      <BrandIntro intro={intro} setup={setup} />
      {devices.isPending && <p role="status">{LAN_TEXTS.loading}</p>}
      {devices.isError && <FormMessage kind="error">{LAN_TEXTS.loadFailed}</FormMessage>}
      {devices.data?.length === 0 && <NoCompanionLinked />}
      {devices.data && devices.data.length > 0 && children(devices.data)}
      {footer}
    </div>
  );
}
