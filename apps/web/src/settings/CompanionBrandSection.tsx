import { readBridgeLights, type BridgeLights } from '../companion/bridge';
import type { CompanionProvider } from '../companion/companion-lights';
import { LAN_TEXTS, lanLightsOf } from './lan-texts';
import { BrandIntro, LanBrandFrame } from './LanBrandFrame';
import { LanDiagnostics } from './LanDiagnostics';
import { LanLightList } from './LanLightList';

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
  return (
    <LanBrandFrame intro={texts.intro} setup={texts.setup}>
      {(devices) => {
        const lights = lanLightsOf(devices, provider);
        return (
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
        );
      }}
    </LanBrandFrame>
  );
}

/** Settings → MQTT: how to have the companion publish the flag to a broker. */
export function MqttSection() {
  const T = LAN_TEXTS.mqtt;
  return (
    <div className="flex flex-col gap-4">
      <BrandIntro intro={T.intro} setup={T.setup} />
    </div>
  );
}
