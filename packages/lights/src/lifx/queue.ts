import { LIFX_RETRY_FACTOR } from '@flaglight/core';
import type { DriverEvents } from '../driver.js';
import type { LightError } from '../errors.js';
import { sleep, type Timers } from '../timers.js';
import type { LifxPacing } from './pacing.js';
import {
  Cancelled,
  finalError,
  judgeResponse,
  type Job,
  type JobKind,
  type RateBudget,
  type Verdict,
} from './requests.js';

export interface LifxQueueOptions {
  baseUrl: string;
  doFetch: typeof fetch;
  timers: Timers;
  pacing: LifxPacing;
  timeoutMs: number;
  maxRetries: number;
  retryBaseDelayMs: number;
  /** The token each request is sent with. */
  token(): string | null;
  /** Hears a skipped request (warning) and a request that failed for good (error). */
  events: DriverEvents;
  /** A 401: the job was rejected; the caller forgets the token and resets. */
  onUnauthorized(error: LightError): void;
}

export interface LifxQueue {
  add(kind: JobKind, method: string, path: string, body: unknown, devices: string[]): Promise<unknown>;
  /** Rejects every queued job with `reason` and wakes a pump waiting for the next one. */
  dropAll(reason: Error): void;
  /** Drops every job, forgets the pacing and aborts the request in flight. */
  reset(): void;
  pendingCount(): number;
  budget(): RateBudget | null;
}

/** The `fetch` options of one attempt at a job. */
function requestInit(job: Job, token: string | null, signal: AbortSignal): RequestInit {
  return {
    method: job.method,
    headers: {
      Authorization: `Bearer ${token ?? ''}`,
      ...(job.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: job.body === undefined ? undefined : JSON.stringify(job.body),
    signal,
  };
}

/**
 * One request at a time, each when its pacing allows; a failed one is retried with back-off, and
 * its verdict settles the caller's promise. A reset while a job is in flight drops its answer.
 */
export function createLifxQueue(options: LifxQueueOptions): LifxQueue {
  const { baseUrl, doFetch, timers, pacing, timeoutMs, events } = options;
  let queue: Job[] = [];
  let running = false;
  let generation = 0;
  let wake: AbortController | null = null;
  let inFlight: AbortController | null = null;

  function dropAll(reason: Error): void {
    const dropped = queue;
    queue = [];
    for (const job of dropped) job.reject(reason);
    wake?.abort(new Cancelled('dropped'));
  }

  /** One attempt; returns the parsed body, or a verdict for the queue. */
  async function attempt(job: Job): Promise<Verdict> {
    const controller = new AbortController();
    inFlight = controller;
    const timer = timers.setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${job.path}`, requestInit(job, options.token(), controller.signal));
    } catch {
      timers.clearTimeout(timer);
      if (controller.signal.reason instanceof Cancelled) throw controller.signal.reason;
      const timedOut = controller.signal.aborted;
      return { ok: false, retry: true, error: finalError(job.kind, timedOut ? 'timeout' : 'network') };
    } finally {
      inFlight = null;
    }
    timers.clearTimeout(timer);
    pacing.noteRateLimit(response);
    const text = await response.text().catch(() => '');
    return judgeResponse(job, response.status, text, pacing.budget(), timers.now());
  }

  /** Acts on the verdict for the job at the head of the queue. */
  function settle(job: Job, result: Verdict): void {
    if (result.ok) {
      queue.shift();
      job.resolve(result.value);
      return;
    }
    if (result.retry && job.attempts < options.maxRetries) {
      const backoff = options.retryBaseDelayMs * LIFX_RETRY_FACTOR ** job.attempts;
      job.attempts += 1;
      job.notBefore = timers.now() + Math.max(backoff, result.waitMs ?? 0);
      return;
    }
    queue.shift();
    if (result.skip) {
      events.emit({ type: 'warning', message: result.skip });
      job.resolve(null);
      return;
    }
    if (result.disconnect) {
      job.reject(result.error);
      options.onUnauthorized(result.error);
      return;
    }
    events.emit({ type: 'error', error: result.error.toJSON() });
    job.reject(result.error);
  }

  async function pump(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (queue.length > 0) {
        const job = queue[0]!;
        const gen = generation;
        const wait = pacing.readyAt(job) - timers.now();
        if (wait > 0) {
          wake = new AbortController();
          try {
            await sleep(timers, wait, wake.signal);
          } catch {
            // dropped or reset: look at the queue again
          }
          wake = null;
          continue;
        }
        pacing.markStarted(job);
        let result: Verdict;
        try {
          result = await attempt(job);
        } catch (error) {
          if (queue[0] === job) queue.shift();
          job.reject(error);
          continue;
        }
        // reset or cancelled while in flight: the job was already rejected
        if (gen !== generation || queue[0] !== job) continue;
        settle(job, result);
      }
    } finally {
      running = false;
    }
  }

  return {
    add(kind, method, path, body, devices) {
      return new Promise((resolve, reject) => {
        queue.push({ kind, method, path, body, devices, attempts: 0, notBefore: 0, resolve, reject });
        void pump();
      });
    },
    dropAll,
    reset() {
      generation += 1;
      pacing.reset();
      dropAll(new Cancelled('reset'));
      inFlight?.abort(new Cancelled('reset'));
    },
    pendingCount: () => queue.length,
    budget: () => pacing.budget(),
  };
}
