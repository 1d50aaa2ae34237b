import { useQueryClient } from '@tanstack/react-query';
import { Unlink } from 'lucide-react';
import { useState } from 'react';
import {
  forgetNanoleaf,
  pairNanoleaf,
  readBridgeLights,
  type BridgeLights,
  type NanoleafForget,
  type NanoleafPairing as PairingResult,
} from '../companion/bridge';
import { COMPANION_TEXTS } from '../companion/companion-texts';
import { NanoleafPairing } from '../companion/NanoleafPairing';
import { DEVICES_QUERY_KEY } from '../devices/device-api';
import { FormMessage } from '../login/FormField';
import { buttonClass } from '../ui/button-styles';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { LAN_TEXTS, lanLightsOf, type CompanionLanLight } from './lan-texts';
import { LanBrandFrame } from './LanBrandFrame';
import { LanDiagnostics } from './LanDiagnostics';
import { LanLightList } from './LanLightList';

const T = LAN_TEXTS.nanoleaf;

function forgetOutcome(name: string, result: NanoleafForget): { kind: 'success' | 'error'; text: string } {
  switch (result.kind) {
    case 'forgotten':
      return { kind: 'success', text: T.forgotten(result.name) };
    case 'not_paired_here':
      return { kind: 'error', text: T.notPairedHere(name) };
    case 'refused':
      return { kind: 'error', text: T.forgetRefused(result.message) };
    case 'unsupported':
      return { kind: 'error', text: T.forgetUnsupported };
    case 'no_answer':
      return { kind: 'error', text: T.forgetNoAnswer };
  }
}

type ForgetState =
  | { kind: 'idle' }
  | { kind: 'forgetting'; name: string }
  | { kind: 'done'; outcome: { kind: 'success' | 'error'; text: string } };

/**
 * Settings → Nanoleaf: the controllers the account's companions report (from the server: the page
 * never asks 127.0.0.1 on its own, DESIGN §9), pairing, Forget and diagnostics through the companion
 * on this computer, each only after a click.
 */
export function NanoleafSection({
  pair = pairNanoleaf,
  forget = forgetNanoleaf,
  read = readBridgeLights,
}: {
  /** The local bridge (tests give their own). */
  pair?: (address?: string) => Promise<PairingResult>;
  forget?: (id: string) => Promise<NanoleafForget>;
  read?: () => Promise<BridgeLights>;
}) {
  const queryClient = useQueryClient();
  const [toForget, setToForget] = useState<CompanionLanLight | null>(null);
  const [forgetState, setForgetState] = useState<ForgetState>({ kind: 'idle' });

  const runForget = (light: CompanionLanLight) => {
    setForgetState({ kind: 'forgetting', name: light.label });
    void forget(light.id).then((result) => {
      setForgetState({ kind: 'done', outcome: forgetOutcome(light.label, result) });
      if (result.kind === 'forgotten') void queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_KEY });
    });
  };

  return (
    <LanBrandFrame
      intro={T.intro}
      footer={
        <ConfirmDialog
          open={toForget !== null}
          title={T.forgetTitle}
          description={toForget && T.forgetConfirm(toForget.label)}
          confirmLabel={T.forget}
          onConfirm={() => {
            if (toForget) runForget(toForget);
            setToForget(null);
          }}
          onCancel={() => setToForget(null)}
        />
      }
    >
      {(devices) => {
        const controllers = lanLightsOf(devices, 'nanoleaf');
        return (
          <>
            {controllers.length === 0 ? (
              <p className="text-ink-300">{T.none}</p>
            ) : (
              <LanLightList
                lights={controllers}
                label={T.list}
                action={(light) => (
                  <button
                    type="button"
                    className={buttonClass('danger', 'sm', 'self-start sm:self-center')}
                    aria-label={`${T.forget} ${light.label}`}
                    disabled={forgetState.kind === 'forgetting'}
                    onClick={() => setToForget(light)}
                  >
                    <Unlink aria-hidden="true" className="size-4" />
                    {T.forget}
                  </button>
                )}
              />
            )}
            <div className="flex flex-col gap-2" aria-live="polite">
              {forgetState.kind !== 'idle' && (
                <p className="text-caption text-ink-300">{COMPANION_TEXTS.whyPermission}</p>
              )}
              {forgetState.kind === 'forgetting' && <p role="status">{T.forgetting(forgetState.name)}</p>}
              {forgetState.kind === 'done' && (
                <FormMessage kind={forgetState.outcome.kind}>{forgetState.outcome.text}</FormMessage>
              )}
            </div>
            <NanoleafPairing pair={pair} />
            <LanDiagnostics
              provider="nanoleaf"
              buttonLabel={T.diagnostics}
              reportLabel={T.report}
              none={<p>{T.diagnosticsNone}</p>}
              read={read}
            />
          </>
        );
      }}
    </LanBrandFrame>
  );
}
