import {
  AFTER_GREEN_ACTIONS,
  AFTER_GREEN_MAX_SECONDS,
  AFTER_GREEN_MIN_SECONDS,
  FOLLOWED_SESSION_KINDS,
  SESSION_END_ACTIONS,
  type LightFollowSettings,
} from '@flaglight/core';
import { z } from 'zod';

/** What a 400 says about the follow settings, after the field's path (`lightFollow.sessions.0: …`). */
export const LIGHT_FOLLOW_MESSAGES = {
  required: 'is required',
  notObject: 'must be an object',
  notList: 'must be a list of session kinds',
  sessionKind: (kind: unknown) =>
    `unknown session kind ${JSON.stringify(kind)} (known: ${FOLLOWED_SESSION_KINDS.join(', ')})`,
  duplicateKind: 'names a session kind twice',
  afterGreenAction: `must be one of: ${AFTER_GREEN_ACTIONS.join(', ')}`,
  afterSeconds: `must be a whole number of seconds from ${AFTER_GREEN_MIN_SECONDS} to ${AFTER_GREEN_MAX_SECONDS}`,
  sessionEnd: `must be one of: ${SESSION_END_ACTIONS.join(', ')}`,
} as const;

type Issue = { code?: string; input?: unknown; keys?: unknown };

function wording(message: string) {
  return (issue: Issue): string => {
    if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys))
      return `unknown field ${issue.keys.map((key) => JSON.stringify(String(key))).join(', ')}`;
    return issue.input === undefined ? LIGHT_FOLLOW_MESSAGES.required : message;
  };
}

const sessionKind = z.enum(FOLLOWED_SESSION_KINDS, {
  error: (issue) =>
    issue.input === undefined
      ? LIGHT_FOLLOW_MESSAGES.required
      : LIGHT_FOLLOW_MESSAGES.sessionKind(issue.input),
});

/**
 * When the lights follow (core's LightFollowSettings): the session kinds that drive them (none is a
 * valid choice: the lights then follow nothing), what a green held long does, and the session's end.
 */
export const LightFollowSchema = z
  .strictObject(
    {
      sessions: z
        .array(sessionKind, { error: wording(LIGHT_FOLLOW_MESSAGES.notList) })
        .max(FOLLOWED_SESSION_KINDS.length, LIGHT_FOLLOW_MESSAGES.duplicateKind)
        .refine((kinds) => new Set(kinds).size === kinds.length, LIGHT_FOLLOW_MESSAGES.duplicateKind),
      afterGreen: z.strictObject(
        {
          action: z.enum(AFTER_GREEN_ACTIONS, { error: wording(LIGHT_FOLLOW_MESSAGES.afterGreenAction) }),
          afterSeconds: z
            .number({ error: wording(LIGHT_FOLLOW_MESSAGES.afterSeconds) })
            .int(LIGHT_FOLLOW_MESSAGES.afterSeconds)
            .min(AFTER_GREEN_MIN_SECONDS, LIGHT_FOLLOW_MESSAGES.afterSeconds)
            .max(AFTER_GREEN_MAX_SECONDS, LIGHT_FOLLOW_MESSAGES.afterSeconds),
        },
        { error: wording(LIGHT_FOLLOW_MESSAGES.notObject) },
      ),
      sessionEnd: z.enum(SESSION_END_ACTIONS, { error: wording(LIGHT_FOLLOW_MESSAGES.sessionEnd) }),
    },
    { error: wording(LIGHT_FOLLOW_MESSAGES.notObject) },
  )
  .meta({ id: 'LightFollow' }) satisfies z.ZodType<LightFollowSettings>;
