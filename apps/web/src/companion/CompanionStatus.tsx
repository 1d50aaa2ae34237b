import type { LinkedDevice } from '@flaglight/contract';
import type { CompanionLightIds } from '@flaglight/core';
import { Laptop } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../ui/button-styles';
import { checkThisComputer, type BridgeCheck } from './bridge';
import { drivenLightCount } from './companion-lights';
import { COMPANION_TEXTS as T } from './companion-texts';

function formatLastSeen(value: string | null): string {
  const date = value ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return T.never;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * One companion's line, from the server's device list and what the companion last said of itself
 * (paused, its stream): the same story its status page tells.
 */
export function companionLine(
  device: LinkedDevice,
  selection: CompanionLightIds,
  /** This page plays a replay: the companion's lights stay on the live race (decision 040). */
  pageOnReplay = false,
): string {
  const state = device.state;
  // A refusal is said even while it is offline: it is why it is.
  if (state?.stream === 'refused') return T.refused(device.name, state.message);
  if (!device.online) return T.offline(device.name, formatLastSeen(device.lastSeenAt));
  if (state?.paused) return T.paused(device.name);
  if (state?.stream === 'waiting') return T.waiting(device.name);
  if (state?.stream === 'reconnecting') return T.reconnecting(device.name, state.message);
  const driven = drivenLightCount(device.lights, selection);
  return pageOnReplay ? T.onLiveNotReplay(device.name, driven) : T.online(device.name, driven);
}

function CheckResult({ check, selection }: { check: BridgeCheck; selection: CompanionLightIds }) {
  switch (check.kind) {
    case 'tested':
      return (
        <p>
          {T.tested(
            check.status.drivenCount ?? drivenLightCount(check.status.lights, selection),
            check.status.stream,
          )}
          . {T.testedNote}
        </p>
      );
    case 'not_linked':
      return (
        <p>
          {T.notLinked} {check.status.userCode && `${T.notLinkedCode(check.status.userCode)} `}
          <Link
            to={check.status.userCode ? `/link?code=${encodeURIComponent(check.status.userCode)}` : '/link'}
            className="font-semibold text-accent underline"
          >
            {T.openLinkPage}
          </Link>
        </p>
      );
    case 'test_refused':
      return <p>{T.testRefused(check.message)}</p>;
    case 'no_answer':
      return <p>{T.noAnswer}</p>;
  }
}

/**
 * The dashboard's companion line: each linked companion as the server knows it (never by asking
 * 127.0.0.1 on load, DESIGN §9), and Test on this computer, which reaches the local bridge only
 * when pressed, after saying why the browser may ask about the local network.
 */
export function CompanionStatus({
  devices,
  selection,
  pageOnReplay = false,
  check = checkThisComputer,
}: {
  devices: readonly LinkedDevice[];
  selection: CompanionLightIds;
  /** This page plays a replay (the companion's lights stay on the live race). */
  pageOnReplay?: boolean;
  /** The local bridge (tests give their own). */
  check?: () => Promise<BridgeCheck>;
}) {
  const [state, setState] = useState<
    { kind: 'idle' } | { kind: 'checking' } | { kind: 'done'; check: BridgeCheck }
  >({ kind: 'idle' });
  const run = () => {
    setState({ kind: 'checking' });
    void check().then((result) => setState({ kind: 'done', check: result }));
  };

  return (
    <div className="flex flex-col gap-2 rounded-control border border-ink-600 p-3">
      <ul aria-label="Your companions" className="flex flex-col gap-1">
        {devices.map((device) => (
          <li key={device.id} className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className={`size-2 shrink-0 rounded-full ${device.online ? 'bg-flag-green' : 'bg-ink-400'}`}
            />
            {companionLine(device, selection, pageOnReplay)}
          </li>
        ))}
      </ul>
      <div className="flex flex-col gap-2" aria-live="polite">
        <button
          type="button"
          className={buttonClass('secondary', 'sm', 'self-start')}
          disabled={state.kind === 'checking'}
          onClick={run}
        >
          <Laptop aria-hidden="true" className="size-4" />
          {T.testHere}
        </button>
        {state.kind !== 'idle' && <p className="text-caption text-ink-300">{T.whyPermission}</p>}
        {state.kind === 'checking' && <p role="status">{T.checking}</p>}
        {state.kind === 'done' && (
          <div role="status">
            <CheckResult check={state.check} selection={selection} />
          </div>
        )}
      </div>
    </div>
  );
}
