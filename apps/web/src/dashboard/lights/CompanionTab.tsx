import type { LinkedDevice } from '@flaglight/contract';
import type { LocalSettings } from '@flaglight/core';
import type { LightDeviceInfo } from '@flaglight/lights';
import { CircleHelp, Download, Play } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  companionLightKey,
  companionSelectionFromKeys,
  companionSelectionKeys,
  isEveryLightSelection,
  tickedCompanionKeys,
} from '../../companion/companion-lights';
import { COMPANION_TEXTS as T, DOWNLOADS } from '../../companion/companion-texts';
import { NanoleafPairing } from '../../companion/NanoleafPairing';
import { testCompanions } from '../../devices/device-api';
import type { LocalSettingsPatch } from '../../settings/local-settings';
import { buttonClass } from '../../ui/button-styles';
import { DeviceList } from './DeviceList';

const PROVIDER_LABELS = {
  lifx_lan: 'LIFX (LAN)',
  hue_local: 'Hue bridge',
  govee_lan: 'Govee (LAN)',
  nanoleaf: 'Nanoleaf',
  home_assistant: 'Home Assistant',
  wled: 'WLED',
} as const;
const REACHABLE_LABELS = { on: 'Reachable', off: 'Unreachable' };

interface CompanionTabProps {
  /** The account's companions; undefined while loading. */
  devices: readonly LinkedDevice[] | undefined;
  loadFailed: boolean;
  settings: LocalSettings;
  update: (patch: LocalSettingsPatch) => void;
}

/** A companion's lights as the device list shows them: one key per provider and id. */
function listed(device: LinkedDevice): LightDeviceInfo[] {
  return device.lights.map((light) => ({
    id: companionLightKey(light),
    label: light.label || light.id,
    group: { name: PROVIDER_LABELS[light.provider] },
    connected: light.reachable,
  }));
}

/**
 * Govee lights stay silent on the LAN until "LAN Control" is on for each one: said once, quietly,
 * while no companion reports a Govee light (reference nanoleaf-govee.md §2.1).
 */
function GoveeLanNote() {
  return (
    <p className="text-caption text-ink-300">
      {T.goveeLanNote}{' '}
      <Link
        to="/help?q=govee"
        className="inline-flex items-center gap-1 font-semibold text-accent underline-offset-4 hover:underline"
      >
        <CircleHelp aria-hidden="true" className="size-3.5" />
        {T.goveeHelp}
      </Link>
    </p>
  );
}

function NoCompanion() {
  return (
    <div className="flex flex-col gap-3">
      <p className="text-ink-300">{T.noneLinked}</p>
      <p className="text-ink-300">{T.linkSteps}</p>
      <div className="flex flex-wrap gap-2">
        <a href={DOWNLOADS.windows} className={buttonClass('secondary', 'sm')}>
          <Download aria-hidden="true" className="size-4" />
          {T.downloadWindows}
        </a>
        <a href={DOWNLOADS.linux} className={buttonClass('secondary', 'sm')}>
          <Download aria-hidden="true" className="size-4" />
          {T.downloadLinux}
        </a>
        <Link to="/link" className={buttonClass('ghost', 'sm')}>
          {T.openLinkPage}
        </Link>
      </div>
    </div>
  );
}

/**
 * What the ticks mean: every light found (new ones too) until the fan chooses; nothing ticked is no
 * light (decision 031), with the way back to "every light".
 */
function SelectionNote(props: { everyLight: boolean; nothingTicked: boolean; onEveryLight: () => void }) {
  if (props.everyLight) return <p className="text-caption text-ink-300">{T.everyLight}</p>;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <p className="text-caption text-ink-300">{props.nothingTicked ? T.nothingTicked : T.someTicked}</p>
      <button type="button" className={buttonClass('ghost', 'sm')} onClick={props.onEveryLight}>
        {T.driveEveryLight}
      </button>
    </div>
  );
}

/**
 * The Light Control tab of the account's desktop companions: the LAN lights they report (grouped by
 * companion when there are several), chosen like the other tabs. The choice is the account's
 * `selectedLights.lifx_lan`, `hue_local`…; no choice yet means the companion drives every light it finds.
 * Below them: the LAN Control note while no Govee light is reported, and Pair a Nanoleaf.
 */
export function CompanionTab({ devices, loadFailed, settings, update }: CompanionTabProps) {
  const [testResult, setTestResult] = useState<string | null>(null);
  if (devices === undefined)
    return loadFailed ? (
      <p role="alert" className="text-danger">
        {T.loadFailed}
      </p>
    ) : (
      <p role="status" className="text-ink-300">
        {T.loading}
      </p>
    );
  if (devices.length === 0) return <NoCompanion />;

  const selected = tickedCompanionKeys(devices, settings.companionSelectedLights);
  const everyLight = isEveryLightSelection(settings.companionSelectedLights);
  const hidden = companionSelectionKeys(settings.companionHiddenLights);
  const several = devices.length > 1;
  const hasGovee = devices.some((device) => device.lights.some((light) => light.provider === 'govee_lan'));
  const onTest = () => {
    setTestResult(null);
    testCompanions('green').then(
      ({ devices: reached }) => setTestResult(T.testSent(reached)),
      () => setTestResult(T.testFailed),
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <SelectionNote
        everyLight={everyLight}
        nothingTicked={!everyLight && selected.length === 0}
        onEveryLight={() => update({ companionSelectedLights: {} })}
      />
      {devices.map((device) => (
        <section key={device.id} aria-label={device.name} className="flex flex-col gap-3">
          {several && (
            <h3 className="flex items-center gap-2 font-semibold">
              {device.name}
              <span className="text-caption font-normal text-ink-300">
                {device.online ? 'Online now' : 'Offline'}
              </span>
            </h3>
          )}
          {device.lights.length === 0 ? (
            <p className="text-ink-300">{T.noLightsYet(device.name)}</p>
          ) : (
            <DeviceList
              providerName={several ? device.name : T.tab}
              devices={listed(device)}
              selected={selected}
              hidden={hidden}
              statusLabels={REACHABLE_LABELS}
              onSelectedChange={(keys) =>
                update({ companionSelectedLights: companionSelectionFromKeys(keys) })
              }
              onHiddenChange={(keys) => update({ companionHiddenLights: companionSelectionFromKeys(keys) })}
            />
          )}
        </section>
      ))}
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className={buttonClass('primary', 'sm')} onClick={onTest}>
          <Play aria-hidden="true" className="size-4" />
          {T.testLights}
        </button>
        {testResult && (
          <p role="status" className="text-caption text-ink-300">
            {testResult}
          </p>
        )}
      </div>
      {!hasGovee && <GoveeLanNote />}
      <NanoleafPairing />
    </div>
  );
}
