import type { Generated } from 'kysely';

/**
 * Table types. Timestamps are ISO-8601 UTC strings in both dialects so that SQLite and
 * PostgreSQL rows read back identically (docs/decisions/002-portable-storage.md).
 * Booleans are 0/1 integers for the same reason.
 */
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  plan: 'trial' | 'lifetime' | 'pro';
  is_admin: Generated<number>;
  created_at: string;
  last_login: string | null;
  trial_expires: string | null;
  /** When the address was proved: the sign-up link or a password reset. */
  email_verified_at: string | null;
}

export interface AuthSessionsTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A single-use link that proves an e-mail address; the token is stored as its SHA-256. */
export interface EmailVerificationsTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface PaymentsTable {
  id: string;
  user_id: string | null;
  checkout_session_id: string;
  amount_cents: number;
  currency: string;
  status: 'open' | 'paid' | 'expired';
  created_at: string;
  completed_at: string | null;
}

export interface LicencesTable {
  key_hash: string;
  plan: 'lifetime' | 'pro';
  source: 'payment' | 'admin';
  payment_id: string | null;
  created_at: string;
  redeemed_by: string | null;
  redeemed_at: string | null;
}

export interface TrackedSessionsTable {
  id: string;
  user_id: string;
  /** JSON of the session summary the client was following (SPEC §3). */
  session_data: string;
  started_at: string;
  ended_at: string | null;
  email_sent_at: string | null;
  /**
   * The session as the server knew it when tracking started (migration 0011): `live:<session key>`,
   * or what a replay plays (`replay:bundled:<id>`); null when it knew none (no e-mail then).
   */
  session_ref: string | null;
  /** Its name for the e-mail ("Saudi Arabia Grand Prix – Race"), from the server's own data. */
  session_title: string | null;
  /** When it started (ISO), the start of the e-mail's timeline. */
  session_start: string | null;
}

/** One row per account and session a post-race e-mail went out for (migration 0011). */
export interface PostRaceMailsTable {
  user_id: string;
  session_ref: string;
  sent_at: string;
}

/** A user's Hue remote-API connection. Tokens and key are sealed with APP_SECRET (hue/crypto.ts). */
export interface HueConnectionsTable {
  user_id: string;
  /** 'expired': the refresh failed; the tokens are gone, the application key is kept. */
  status: 'connected' | 'expired';
  access_token: string | null;
  refresh_token: string | null;
  access_expires_at: string | null;
  application_key: string | null;
  created_at: string;
  updated_at: string;
}

/** A user's Govee cloud API key, sealed with APP_SECRET (govee/repository.ts); never returned. */
export interface GoveeConnectionsTable {
  user_id: string;
  api_key: string;
  created_at: string;
  updated_at: string;
}

/** One pending Hue OAuth flow: the state (stored hashed) binds the callback to its user. */
export interface HueOauthStatesTable {
  state_hash: string;
  user_id: string;
  redirect_uri: string;
  created_at: string;
  expires_at: string;
}

/**
 * An account's preferences as one JSON document (the contract's PreferencesSchema). `version`
 * counts writes; a write applies only where the row still has the version it was based on.
 */
export interface UserPreferencesTable {
  user_id: string;
  version: number;
  data: string;
  updated_at: string;
}

/** A linked desktop companion; its bearer token is stored as its SHA-256 only. */
export interface DevicesTable {
  id: string;
  user_id: string;
  name: string;
  platform: string;
  version: string;
  token_hash: string;
  created_at: string;
  last_seen_at: string | null;
  /** Set when unlinked: the token stops working; the row stays for the record. */
  revoked_at: string | null;
  /** The LAN lights it last reported, a JSON array of the contract's DeviceLight; null before any. */
  lights: string | null;
  lights_updated_at: string | null;
  /** What it last said of itself, a JSON object of the contract's DeviceState; null before any. */
  state: string | null;
  state_updated_at: string | null;
}

/** A device authorization request (RFC 8628) waiting for, or decided by, a user. */
export interface DeviceCodesTable {
  device_code_hash: string;
  /** The user code's 8 letters, without the dash. */
  user_code: string;
  name: string;
  platform: string;
  version: string;
  /** `used`: its token was issued (single use). */
  status: 'pending' | 'approved' | 'denied' | 'used';
  /** Who approved or denied it. */
  user_id: string | null;
  created_at: string;
  expires_at: string;
  last_polled_at: string | null;
}

export interface Database {
  users: UsersTable;
  auth_sessions: AuthSessionsTable;
  password_resets: PasswordResetsTable;
  email_verifications: EmailVerificationsTable;
  payments: PaymentsTable;
  licences: LicencesTable;
  tracked_sessions: TrackedSessionsTable;
  post_race_mails: PostRaceMailsTable;
  hue_connections: HueConnectionsTable;
  hue_oauth_states: HueOauthStatesTable;
  user_preferences: UserPreferencesTable;
  devices: DevicesTable;
  device_codes: DeviceCodesTable;
  govee_connections: GoveeConnectionsTable;
}
