import { readBridgeLights, type BridgeLights } from '../companion/bridge';
import type { CompanionProvider } from '../companion/companion-lights';
import { useCompanionList } from '../companion/use-companions';
import { FormMessage } from '../login/FormField';
import { LAN_TEXTS, lanLightsOf } from './lan-texts';
import { LanDiagnostics } from './LanDiagnostics';
import { LanLightList } from './LanLightList';
import { NoCompanionLinked } from './NoCompanionLinked';

interface BrandTexts {
  intro: string;
  setup: readonly string[];
  list: string;
  none: string;
  diagnostics: string;
  report: string;
  diagnosticsNone: string;
}

/**
 * Settings → a brand the desktop companion drives at home (Home Assistant, WLED): what it is, how to
 * set it up, the lights the account's companions report (from the server, never by asking 127.0.0.1
 * on load, DESIGN §9), and diagnostics through the companion on this computer after a click.
 */
export function CompanionBrandSection({
  provider,
  texts,
  read = readBridgeLights,
}: {
  provider: CompanionProvider;
  texts: BrandTexts;
  /** The local bridge (tests give their own). */
  read?: () => Promise<BridgeLights>;
}) {
  const devices = useCompanionList();
  const lights = devices.data ? lanLightsOf(devices.data, provider) : [];

  return (
    <div className="flex flex-col gap-4">
      <p className="text-ink-300">{texts.intro}</p>
      <ol className="flex list-decimal flex-col gap-1 pl-5 text-ink-300">
        {texts.setup.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {devices.isPending && <p role="status">{LAN_TEXTS.loading}</p>}
      {devices.isError && <FormMessage kind="error">{LAN_TEXTS.loadFailed}</FormMessage>}
      {devices.data?.length === 0 && <NoCompanionLinked />}
      {devices.data && devices.data.length > 0 && (
        <>
          {lights.length === 0 ? (
            <p className="text-ink-300">{texts.none}</p>
          ) : (
            <LanLightList lights={lights} label={texts.list} />
          )}
          <LanDiagnostics
            provider={provider}
            buttonLabel={texts.diagnostics}
            reportLabel={texts.report}
            none={<p>{texts.diagnosticsNone}</p>}
            read={read}
          />
        </>
      )}
    </div>
  );
}

/** Settings → MQTT: how to have the companion publish the flag to a broker. */
export function MqttSection() {
  const T = LAN_TEXTS.mqtt;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-ink-300">{T.intro}</p>
      <ol className="flex list-decimal flex-col gap-1 pl-5 text-ink-300">
        {T.setup.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </div>
  );
}
