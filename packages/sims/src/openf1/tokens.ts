import { randomBytes } from 'node:crypto';
import { type Clock } from '../shared/clock.js';

export const DEFAULT_OPENF1_USERS: Readonly<Record<string, string>> = { flaglight: 'flaglight' };
export const TOKEN_LIFETIME_SECONDS = 3600;

/** Access tokens of `POST /token`, expiring on the sim's clock. */
export class TokenStore {
  private readonly tokens = new Map<string, { username: string; expiresAt: number }>();
  users: Record<string, string>;

  constructor(
    private readonly now: Clock,
    users: Record<string, string>,
    readonly lifetimeSeconds: number,
  ) {
    this.users = { ...users };
  }

  /** A token for good credentials, or null. */
  exchange(username: string, password: string): string | null {
    if (!username || this.users[username] === undefined || this.users[username] !== password) return null;
    return this.issue(username);
  }

  issue(username: string): string {
    // Shaped like a JWT so clients that peek at it see the familiar `eyJ` prefix.
    const token = `eyJzaW0iOiJvcGVuZjEifQ.${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { username, expiresAt: this.now() + this.lifetimeSeconds * 1000 });
    return token;
  }

  isValid(token: string | undefined): boolean {
    if (!token) return false;
    const entry = this.tokens.get(token);
    return entry !== undefined && this.now() < entry.expiresAt;
  }

  expireAll(): void {
    this.tokens.clear();
  }
}
