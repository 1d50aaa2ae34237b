import { readBridgeLights, type BridgeLights } from '../companion/bridge';
import { useCompanionList } from '../companion/use-companions';
import { FormMessage } from '../login/FormField';
import { LAN_TEXTS, lanLightsOf } from './lan-texts';
import { LanDiagnostics } from './LanDiagnostics';
import { LanLightList } from './LanLightList';
import { NoCompanionLinked } from './NoCompanionLinked';

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
  const devices = useCompanionList();
  const lights = devices.data ? lanLightsOf(devices.data, 'govee_lan') : [];

  return (
    <div className="flex flex-col gap-4">
      <p className="text-ink-300">{T.intro}</p>
      {devices.isPending && <p role="status">{LAN_TEXTS.loading}</p>}
      {devices.isError && <FormMessage kind="error">{LAN_TEXTS.loadFailed}</FormMessage>}
      {devices.data?.length === 0 && <NoCompanionLinked />}
      {devices.data && devices.data.length > 0 && (
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
      )}
      <p className="text-caption text-ink-300">{T.cloudNote}</p>
    </div>
  );
}
