import { readBridgeLights, type BridgeLights } from '../companion/bridge';
import { LAN_TEXTS, lanLightsOf } from './lan-texts';
import { LanBrandFrame } from './LanBrandFrame';
import { LanDiagnostics } from './LanDiagnostics';
import { LanLightList } from './LanLightList';

const T = LAN_TEXTS.goveeLan;

/**
 * Settings → Govee (LAN): the Govee lights the account's companions find on the home network (from
 * the server, never by asking 127.0.0.1 on load, DESIGN §9), what to switch on when none are found,
 * and diagnostics through the companion on this computer after a click.
 */
export function GoveeLanSection({
  read = readBridgeLights,
}: {
  /** The local bridge (tests give their own). */
  read?: () => Promise<BridgeLights>;
}) {
  return (
    <LanBrandFrame intro={T.intro} footer={<p className="text-caption text-ink-300">{T.cloudNote}</p>}>
      {(devices) => {
        const lights = lanLightsOf(devices, 'govee_lan');
        return (
          <>
            {lights.length === 0 ? (
              <div className="flex flex-col gap-1 text-ink-300">
                <p>{T.none}</p>
                <p>{T.lanControl}</p>
              </div>
            ) : (
              <LanLightList lights={lights} label={T.list} />
            )}
            <LanDiagnostics
              provider="govee_lan"
              buttonLabel={T.diagnostics}
              reportLabel={T.report}
              none={
                <>
                  <p>{T.diagnosticsNone}</p>
                  <p>{T.lanControl}</p>
                </>
              }
              read={read}
            />
          </>
        );
      }}
    </LanBrandFrame>
  );
}
