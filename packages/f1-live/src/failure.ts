import { escapeLogText } from '@flaglight/core/log';
import { type ILogger, LogLevel } from '@microsoft/signalr';

/** Where a connection attempt was when it failed. */
export type F1LivePhase = 'setup' | 'connect' | 'subscribe' | 'snapshot' | 'closed';

const WORDS: Record<F1LivePhase, string> = {
  setup: 'F1 live timing: the connection could not be set up',
  connect: 'F1 live timing could not be reached',
  subscribe: 'F1 live timing refused the subscription',
  snapshot: 'F1 live timing did not answer in time',
  closed: 'F1 live timing closed the connection',
};

/** Text from the library or the upstream quoted in a log line: its whole error page is not wanted. */
export const F1_LIVE_LOG_QUOTE_MAX = 300;

/**
 * Why a connection attempt failed, in the client's own words: the state's `error`, which servers
 * show in public answers. Only the HTTP status is taken from the upstream, never its body or the
 * library's message (an HTML error page, a stack): those go to the log.
 */
export function describeF1LiveFailure(phase: F1LivePhase, error: unknown, httpStatus: number | null): string {
  const message = error instanceof Error ? error.message : String(error);
  // The WebSocket upgrade's refusal ("Unexpected server response: 503") carries no body.
  const status =
    httpStatus ?? Number(/Unexpected server response: (\d{3})\b/.exec(message)?.[1] ?? Number.NaN);
  if (Number.isInteger(status) && status >= 100 && status <= 599)
    return `F1 live timing refused the connection (${status})`;
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || /\btimed? ?out\b|timeout/i.test(message)) return WORDS.snapshot;
  return WORDS[phase];
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The library's own log, clipped: its negotiate failures quote the host's whole error page. */
export function signalrLogger(logger: F1LiveLogger): ILogger {
  return {
    log(level, message) {
      // The library reports each failure it recovers from as an error; the client says what it does next.
      const line = escapeLogText(message, { max: F1_LIVE_LOG_QUOTE_MAX });
      if (level >= LogLevel.Warning && level < LogLevel.None) logger.warn({ signalr: true }, line);
      else if (level === LogLevel.Information) logger.debug({ signalr: true }, line);
    },
  };
}

type LogFn = (data: Record<string, unknown>, message: string) => void;
/** pino-compatible. */
export interface F1LiveLogger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}
