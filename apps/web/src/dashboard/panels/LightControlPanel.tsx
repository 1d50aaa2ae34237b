import * as Tabs from '@radix-ui/react-tabs';
import { Lightbulb } from 'lucide-react';
import { useContext, useState } from 'react';
import { useAuth } from '../../auth/auth-context';
import { drivenLightCount, findSharedLights } from '../../companion/companion-lights';
import { COMPANION_TEXTS } from '../../companion/companion-texts';
import { CompanionStatus } from '../../companion/CompanionStatus';
import { SharedLightsPrompt } from '../../companion/SharedLightsPrompt';
import { useCompanionList } from '../../companion/use-companions';
import { useLightControl, useProviderState } from '../../lights/light-control-context';
import { useLights, type DrivenProvider } from '../../lights/lights-context';
import { isProviderConnected, isProviderReady } from '../../lights/provider-store';
import { LiveConnectionContext } from '../../live/live-connection-context';
import { useLocalSettings } from '../../settings/local-settings';
import { UnsavedChangeNotice } from '../../settings/UnsavedChangeNotice';
import { Panel } from '../../ui/Panel';
import { CompanionTab } from '../lights/CompanionTab';
import { PROVIDER_NAMES, ProviderTab } from '../lights/ProviderTab';
import { ScreenLight } from '../lights/ScreenLight';

const TAB_CLASS =
  'min-h-11 flex-1 whitespace-nowrap rounded-control px-3 py-2 font-semibold text-ink-300 transition-colors hover:text-ink-100 sm:px-4 ' +
  'data-[state=active]:bg-ink-700 data-[state=active]:text-ink-100 focus-visible:outline-2 ' +
  'focus-visible:outline-offset-2 focus-visible:outline-accent';

/** The panel's line on what follows the flags: the cloud lights, the companion's, this screen. */
export function describeDrivenLights(driven: {
  cloud: string | null;
  companion: number;
  screen: boolean;
}): string {
  const parts = [
    ...(driven.cloud ? [`your ${driven.cloud} lights`] : []),
    ...(driven.companion > 0
      ? [`your companion's ${driven.companion} light${driven.companion === 1 ? '' : 's'}`]
      : []),
  ];
  if (parts.length === 0)
    return driven.screen
      ? 'Pick the lights that show the flags. Until then, flags show on this screen only.'
      : 'Pick the lights that show the flags, or tick this screen below.';
  if (driven.screen) parts.push('this screen');
  const list = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
  return `Flags drive ${list}.`;
}

/**
 * SPEC §2 Light Control: a tab per provider (device list, selection, hide, test) and the
 * on-screen light that follows every flag.
 */
export function LightControlPanel() {
  const { user } = useAuth();
  const [settings, update] = useLocalSettings(user?.email);
  const { engine } = useLightControl();
  const { drivenProvider, restoring } = useLights();
  const states = {
    lifx: useProviderState('lifx'),
    hue: useProviderState('hue'),
    govee: useProviderState('govee'),
  };
  // Govee's lights follow every flag beside the driven provider (LightsEngine.playFlag).
  const goveeAlongside =
    drivenProvider !== null && drivenProvider !== 'govee' && isProviderReady(states.govee);
  const companions = useCompanionList();
  // Outside a LiveProvider (a component test) there is no connection to speak of.
  const live = useContext(LiveConnectionContext);
  const [tab, setTab] = useState<DrivenProvider | 'companion' | null>(null);
  const shown = tab ?? drivenProvider ?? (isProviderConnected(states.hue) ? 'hue' : 'lifx');
  const shared = findSharedLights(companions.data, settings);
  // What the account's online companions drive now, by the same rule as the companion itself.
  const companionLights = (companions.data ?? [])
    .filter((device) => device.online)
    .reduce((sum, device) => sum + drivenLightCount(device.lights, settings.companionSelectedLights), 0);

  return (
    <Panel
      title="Light Control"
      icon={Lightbulb}
      className="flex-1"
      description={describeDrivenLights({
        cloud: drivenProvider
          ? `${PROVIDER_NAMES[drivenProvider]}${goveeAlongside ? ' and Govee' : ''}`
          : null,
        companion: companionLights,
        screen: settings.screenLight,
      })}
    >
      <UnsavedChangeNotice area="lights" />
      {companions.data && companions.data.length > 0 && (
        <CompanionStatus
          devices={companions.data}
          selection={settings.companionSelectedLights}
          pageOnReplay={live?.state.target?.kind === 'replay'}
        />
      )}
      <SharedLightsPrompt count={shared.count} driver={settings.sharedLightsDriver} update={update} />
      <Tabs.Root value={shown} onValueChange={(value) => setTab(value as DrivenProvider | 'companion')}>
        <Tabs.List
          aria-label="Light providers"
          className="flex flex-wrap gap-1 rounded-control bg-ink-900 p-1"
        >
          {(['lifx', 'hue', 'govee'] as const).map((provider) => (
            <Tabs.Trigger key={provider} value={provider} className={TAB_CLASS}>
              {PROVIDER_NAMES[provider]}
              {isProviderConnected(states[provider]) && (
                <span aria-hidden="true" className="ml-2 inline-block size-2 rounded-full bg-flag-green" />
              )}
            </Tabs.Trigger>
          ))}
          <Tabs.Trigger value="companion" className={TAB_CLASS}>
            {COMPANION_TEXTS.tab}
            {companions.data?.some((device) => device.online) && (
              <span aria-hidden="true" className="ml-2 inline-block size-2 rounded-full bg-flag-green" />
            )}
          </Tabs.Trigger>
        </Tabs.List>
        {(['lifx', 'hue', 'govee'] as const).map((provider) => (
          <Tabs.Content key={provider} value={provider} className="pt-4 focus-visible:outline-none">
            <ProviderTab
              provider={provider}
              engine={engine}
              state={states[provider]}
              restoring={restoring}
              driven={drivenProvider === provider || (provider === 'govee' && goveeAlongside)}
              settings={settings}
              update={update}
            />
          </Tabs.Content>
        ))}
        <Tabs.Content value="companion" className="pt-4 focus-visible:outline-none">
          <CompanionTab
            devices={companions.data}
            loadFailed={companions.isError}
            settings={settings}
            update={update}
          />
        </Tabs.Content>
      </Tabs.Root>
      <ScreenLight
        screen={engine?.screen ?? null}
        enabled={settings.screenLight}
        onEnabledChange={(screenLight) => update({ screenLight })}
      />
    </Panel>
  );
}
