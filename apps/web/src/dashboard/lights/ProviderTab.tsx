import type { LocalSettings } from '@flaglight/core';
import { Play, RefreshCw, Settings } from 'lucide-react';
import { Link } from 'react-router';
import { ConnectionError } from '../../lights/ConnectionError';
import { useRoomNotes } from '../../lights/light-control-context';
import type { DrivenProvider } from '../../lights/lights-context';
import type { LightsEngine } from '../../lights/lights-engine';
import { LIGHTS_TEXTS as T } from '../../lights/lights-texts';
import { isProviderConnected, type ProviderSnapshot } from '../../lights/provider-store';
import type { LocalSettingsPatch } from '../../settings/local-settings';
import { toast } from '../../toasts/toast';
import { buttonClass } from '../../ui/button-styles';
import { DeviceList } from './DeviceList';

export const PROVIDER_NAMES: Record<DrivenProvider, string> = {
  lifx: 'LIFX',
  hue: 'Philips Hue',
  govee: 'Govee',
};

const KEYS = {
  lifx: { selected: 'selectedLifxDeviceIds', hidden: 'hiddenLifxDeviceIds' },
  hue: { selected: 'selectedHueDeviceIds', hidden: 'hiddenHueDeviceIds' },
  govee: { selected: 'selectedGoveeDeviceIds', hidden: 'hiddenGoveeDeviceIds' },
} as const;

/** Lists the provider's lights again (the engine's own call for each). */
function reload(engine: LightsEngine | null, provider: DrivenProvider): Promise<void> | undefined {
  if (provider === 'hue') return engine?.loadHueLights();
  if (provider === 'govee') return engine?.loadGoveeLights();
  return engine?.refreshLifx();
}

interface ProviderTabProps {
  provider: DrivenProvider;
  engine: LightsEngine | null;
  state: ProviderSnapshot;
  restoring: boolean;
  driven: boolean;
  settings: LocalSettings;
  update: (patch: LocalSettingsPatch) => void;
}

function SettingsLink({ children }: { children: string }) {
  return (
    <Link to="/settings" className={buttonClass('secondary', 'sm', 'self-start')}>
      <Settings aria-hidden="true" className="size-4" />
      {children}
    </Link>
  );
}

/** One provider's tab of the Light Control panel (SPEC §2 Dashboard). */
export function ProviderTab({
  provider,
  engine,
  state,
  restoring,
  driven,
  settings,
  update,
}: ProviderTabProps) {
  const name = PROVIDER_NAMES[provider];
  const keys = KEYS[provider];
  const notes = useRoomNotes(provider);

  if (!isProviderConnected(state)) {
    if (restoring || state.status === 'connecting')
      return (
        <p role="status" className="text-ink-300">
          Connecting to {name}…
        </p>
      );
    return (
      <div className="flex flex-col gap-3">
        {state.error ? (
          <ConnectionError message={state.error}>
            <Link to="/settings" className="self-start text-accent underline underline-offset-2">
              Open Settings to reconnect
            </Link>
          </ConnectionError>
        ) : (
          <>
            <p className="text-ink-300">{name} is not connected.</p>
            <SettingsLink>{`Connect ${name} in Settings`}</SettingsLink>
          </>
        )}
      </div>
    );
  }

  const onTest = () => {
    if (!engine?.playFlag('green', { only: provider })) window.alert(T.noLights(name));
    else toast.info(`Testing ${name}: green`);
  };

  return (
    <div className="flex flex-col gap-4">
      {state.error && (
        <ConnectionError message={state.error}>
          <Link to="/settings" className="self-start text-accent underline underline-offset-2">
            Open Settings
          </Link>
        </ConnectionError>
      )}
      {provider === 'govee' && <p className="text-caption text-ink-300">{T.goveeSolidOnly}</p>}
      {!state.devicesLoaded ? (
        <div className="flex flex-col gap-3">
          <p className="text-ink-300">
            {provider === 'hue'
              ? 'Your Hue account is connected. Load the lights, or finish the application key in Settings.'
              : 'Load your lights to pick the ones to drive.'}
          </p>
          <button
            type="button"
            className={buttonClass('secondary', 'sm', 'self-start')}
            disabled={state.loadingDevices}
            onClick={() => void reload(engine, provider)}
          >
            <RefreshCw aria-hidden="true" className="size-4" />
            {state.loadingDevices ? 'Loading…' : 'Load lights'}
          </button>
        </div>
      ) : state.devices.length === 0 ? (
        <p className="text-ink-300">No {name} lights found on this account.</p>
      ) : (
        <DeviceList
          providerName={name}
          devices={state.devices}
          selected={settings[keys.selected]}
          hidden={settings[keys.hidden]}
          onSelectedChange={(ids) => update({ [keys.selected]: ids })}
          onHiddenChange={(ids) => update({ [keys.hidden]: ids })}
          notes={notes}
        />
      )}
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className={buttonClass('primary', 'sm')} onClick={onTest}>
          <Play aria-hidden="true" className="size-4" />
          Test lights
        </button>
        {state.devicesLoaded && (
          <button
            type="button"
            className={buttonClass('ghost', 'sm')}
            disabled={state.loadingDevices}
            onClick={() => void reload(engine, provider)}
          >
            <RefreshCw aria-hidden="true" className="size-4" />
            {state.loadingDevices ? 'Refreshing…' : 'Refresh'}
          </button>
        )}
        {driven && <p className="text-caption text-flag-green">Flags drive these lights.</p>}
      </div>
    </div>
  );
}
