import crypto from 'node:crypto';

/** A stream ticket lives this long: enough to open the EventSource right after asking for it. */
export const TICKET_TTL_MS = 30_000;
const MAX_TICKETS = 100_000;

/** Who a ticket was issued to, and the one session it opens when it was asked for one. */
export interface TicketGrant {
  userId: string;
  sessionKey?: number | undefined;
  /** The linked companion the ticket was issued to: its stream closes when it is unlinked. */
  deviceId?: string | undefined;
}

export interface TicketStore {
  issue(grant: TicketGrant): Promise<{ ticket: string; expiresAt: number }>;
  /** Returns the grant once; a used, unknown or expired ticket gives null. */
  redeem(ticket: string): Promise<TicketGrant | null>;
}

/**
 * One-time tickets for the event stream (DESIGN §5.4): the session token never goes in a URL.
 * In memory for one instance; with REDIS_URL they live in Redis (redis.ts) so any instance redeems them.
 */
export function createTicketStore(now: () => number): TicketStore {
  const tickets = new Map<string, { grant: TicketGrant; expiresAt: number }>();

  function prune(): void {
    const t = now();
    for (const [key, value] of tickets) if (value.expiresAt <= t) tickets.delete(key);
  }

  return {
    async issue(grant) {
      if (tickets.size >= MAX_TICKETS / 2) prune();
      if (tickets.size >= MAX_TICKETS) {
        const oldest = tickets.keys().next().value;
        if (oldest !== undefined) tickets.delete(oldest);
      }
      const ticket = crypto.randomBytes(24).toString('base64url');
      const expiresAt = now() + TICKET_TTL_MS;
      tickets.set(ticket, { grant, expiresAt });
      return { ticket, expiresAt };
    },
    async redeem(ticket) {
      const entry = tickets.get(ticket);
      if (!entry) return null;
      tickets.delete(ticket);
      return entry.expiresAt > now() ? entry.grant : null;
    },
  };
}
