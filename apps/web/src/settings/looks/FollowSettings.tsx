import {
  AFTER_GREEN_ACTIONS,
  AFTER_GREEN_MAX_SECONDS,
  AFTER_GREEN_MIN_SECONDS,
  FOLLOWED_SESSION_KINDS,
  SESSION_END_ACTIONS,
  type FollowedSessionKind,
} from '@flaglight/core';
import { useId, type ReactNode } from 'react';
import { UnsavedChangeNotice } from '../UnsavedChangeNotice';
import { AFTER_GREEN_NAMES, LOOKS_TEXTS as T, SESSION_END_NAMES, SESSION_NAMES } from './looks-texts';
import { NumberField } from './NumberField';
import { useLightFollow } from './use-light-follow';

function Choice({
  name,
  checked,
  onChange,
  children,
  type = 'radio',
}: {
  name?: string;
  checked: boolean;
  onChange: () => void;
  children: ReactNode;
  type?: 'radio' | 'checkbox';
}) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3">
      <input type={type} name={name} className="size-5 accent-accent" checked={checked} onChange={onChange} />
      <span>{children}</span>
    </label>
  );
}

const LEGEND = 'mb-1 font-semibold text-ink-100';

/** Which sessions the lights follow, what a long green does, and what the session's end does. */
export function FollowSettings() {
  const { follow, errors, change } = useLightFollow();
  const names = { afterGreen: useId(), sessionEnd: useId() };
  const toggleSession = (kind: FollowedSessionKind) => {
    const on = follow.sessions.includes(kind);
    const sessions = FOLLOWED_SESSION_KINDS.filter((k) => (k === kind ? !on : follow.sessions.includes(k)));
    change({ sessions });
  };
  return (
    <div className="flex flex-col gap-6">
      <fieldset className="flex flex-col">
        <legend className={LEGEND}>{T.sessions}</legend>
        <div className="flex flex-wrap gap-x-6">
          {FOLLOWED_SESSION_KINDS.map((kind) => (
            <Choice
              key={kind}
              type="checkbox"
              checked={follow.sessions.includes(kind)}
              onChange={() => toggleSession(kind)}
            >
              {SESSION_NAMES[kind]}
            </Choice>
          ))}
        </div>
        {follow.sessions.length === 0 && <p className="text-caption text-ink-300">{T.sessionsNone}</p>}
      </fieldset>
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        <fieldset className="flex flex-col gap-2">
          <legend className={LEGEND}>{T.afterGreen}</legend>
          <NumberField
            label={T.afterGreenSeconds}
            value={follow.afterGreen.afterSeconds}
            min={AFTER_GREEN_MIN_SECONDS}
            max={AFTER_GREEN_MAX_SECONDS}
            onChange={(afterSeconds) => change({ afterGreen: { ...follow.afterGreen, afterSeconds } })}
            error={errors['afterGreen.afterSeconds']}
          />
          <div className="flex flex-col">
            {AFTER_GREEN_ACTIONS.map((action) => (
              <Choice
                key={action}
                name={names.afterGreen}
                checked={follow.afterGreen.action === action}
                onChange={() => change({ afterGreen: { ...follow.afterGreen, action } })}
              >
                {AFTER_GREEN_NAMES[action]}
              </Choice>
            ))}
          </div>
        </fieldset>
        <fieldset className="flex flex-col">
          <legend className={LEGEND}>{T.sessionEnd}</legend>
          {SESSION_END_ACTIONS.map((action) => (
            <Choice
              key={action}
              name={names.sessionEnd}
              checked={follow.sessionEnd === action}
              onChange={() => change({ sessionEnd: action })}
            >
              {SESSION_END_NAMES[action]}
              {action === 'as-it-was' && (
                <span className="block text-caption text-ink-300">{T.asItWasNote}</span>
              )}
            </Choice>
          ))}
        </fieldset>
      </div>
      <UnsavedChangeNotice area="lightFollow" />
    </div>
  );
}
