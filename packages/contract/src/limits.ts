// Values only, no zod: shared with the web app at run time.

/** Replay speeds (1-20×, SPEC §4). */
export const MIN_REPLAY_SPEED = 1;
export const MAX_REPLAY_SPEED = 20;
/** A replay starts at most this many minutes into its recording. */
export const MAX_REPLAY_START_MINUTES = 600;
/**
 * Replays one account runs at once: the one it watches, and the one a jump along the timeline starts
 * before the page leaves the old one (or a second screen). Starting another ends the account's
 * oldest, so a fan is never refused for a replay of their own.
 */
export const MAX_REPLAYS_PER_ACCOUNT = 2;
/**
 * Replays running at once that were started from one client address (an IPv6 /64 counts as one).
 * Ten: a household or a pub table of ten fans with a replay each, or five jumping along theirs,
 * behind one NAT. What it stops: accounts are cheap, addresses are not; twenty trial accounts on
 * one address held all 200 of an instance's replays, and now hold ten. Accounts past it on that
 * address get 429 until one of its replays ends (a minute after nobody watches it).
 */
export const MAX_REPLAYS_PER_ADDRESS = 10;

/** A tracked session's free-form summary (sessionData): nesting levels and JSON characters. */
export const MAX_SESSION_DATA_DEPTH = 8;
export const MAX_SESSION_DATA_CHARS = 8192;
/** Companions linked to one account at once (a house of rooms, each with a computer or a Pi). */
export const DEVICE_MAX_LINKED_PER_ACCOUNT = 20;
/**
 * Event streams one account may hold open at once: every companion it may link, and ten pages (TV,
 * phone, laptop...) beside them. Counted per user, never per address: fans share addresses behind NAT.
 */
export const MAX_STREAMS_PER_USER = DEVICE_MAX_LINKED_PER_ACCOUNT + 10;
/**
 * `POST /api/live/ticket` per account and minute: every stream of the account asking again at once
 * (a server restart), twice.
 */
export const STREAM_TICKETS_PER_MINUTE = 2 * MAX_STREAMS_PER_USER;
/**
 * A page's event stream carries a `heartbeat` event this often (an EventSource never sees comment
 * lines), so the page can tell a quiet race from a server that is gone.
 */
export const LIVE_STREAM_HEARTBEAT_MS = 3_000;
/**
 * A page that hears nothing from the server for this long (no event, no heartbeat, no answer to a
 * poll) takes the stream as gone and says so: two heartbeats missed and a second's slack, under the
 * 10 s within which the dashboard must tell (decision 038).
 */
export const LIVE_STREAM_SILENCE_MS = 2 * LIVE_STREAM_HEARTBEAT_MS + 1_000;
/**
 * `POST /api/sessions/track` and `POST /api/sessions/end`, each, per account and minute. A page tracks
 * once when it connects to a live session and ends once when it leaves: an account's ten pages
 * (TV, phone, laptop...) connecting at a session's start, and each reconnecting once, fit.
 */
export const SESSION_TRACKING_PER_ACCOUNT_PER_MINUTE = 20;
/**
 * The same routes per client address and minute, beside the account's own budget: a household or a
 * pub of fans behind one address (NAT) connecting at a session's start fits; one address cycling
 * through many accounts does not.
 */
export const SESSION_TRACKING_PER_ADDRESS_PER_MINUTE = 120;
/** Account preferences: the broadcast delay is whole seconds in this range (the slider shows 0-60). */
export const PREFERENCES_MAX_DELAY_SECONDS = 300;
/**
 * Light ids per provider in the selection or the hidden list: every light one companion may report
 * fits in one provider (a Home Assistant of 500 lights, a house of 256 LIFX bulbs).
 */
export const PREFERENCES_MAX_LIGHTS_PER_PROVIDER = 1024;
/**
 * The body of `PUT /api/me/preferences`: a house with every brand at its drivers' caps (about 1,200
 * lights, cloud and LAN) selected, with ids of the longest kind real devices use, is about 90 KiB.
 */
export const PREFERENCES_BODY_LIMIT_BYTES = 256 * 1024;
/** Companions that may keep a delay offset of their own (every linked one), and the offset's bounds in ms. */
export const PREFERENCES_MAX_DEVICE_OFFSETS = DEVICE_MAX_LINKED_PER_ACCOUNT;
export const PREFERENCES_MAX_OFFSET_MS = 120_000;
/** `PUT /api/me/preferences` per account and minute (sliders are debounced by the clients). */
export const PREFERENCES_WRITES_PER_MINUTE = 120;
/** A companion's device code and user code live this long (RFC 8628 `expires_in`). */
export const DEVICE_CODE_TTL_SECONDS = 600;
/** Seconds a companion waits between token polls (RFC 8628 `interval`). */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** `POST /api/device/code` per client address and minute. */
export const DEVICE_CODES_PER_MINUTE = 10;
/** `POST /api/device/token` per client address and minute (a companion polls 12 times a minute). */
export const DEVICE_TOKEN_POLLS_PER_MINUTE = 60;
/** Look-ups, approvals and denials of user codes per account and minute (against guessing codes). */
export const DEVICE_APPROVALS_PER_MINUTE = 10;
/** The letters of a user code: no vowels (no words) and no look-alikes (I, L, O, U; 0, 1). */
export const USER_CODE_ALPHABET = 'BCDFGHJKMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;
/**
 * `PUT /api/device/lights`: lights one companion may report, and reports per device and minute.
 * Every LAN driver at its cap fits: 256 LIFX bulbs, 500 Home Assistant lights, 64 each of Govee,
 * Nanoleaf and WLED, and a full Hue bridge (63): 1,011.
 */
export const DEVICE_MAX_LIGHTS = 1024;
/** The body of `PUT /api/device/lights`: DEVICE_MAX_LIGHTS lights with the longest ids and labels. */
export const DEVICE_LIGHTS_BODY_LIMIT_BYTES = 512 * 1024;
export const DEVICE_LIGHT_REPORTS_PER_MINUTE = 30;
/** `PUT /api/device/state` per companion and minute (it says each change, at most one a second). */
export const DEVICE_STATE_REPORTS_PER_MINUTE = 60;
/** `POST /api/devices/test` per account and minute. */
export const DEVICE_TESTS_PER_MINUTE = 20;
/**
 * Public reads (health, configuration, schedule, centralized status, the Hue callback's script) per
 * client address and minute: far above any page's polling (3 s) or a load balancer's probe, even for
 * a room of fans behind one address, and a ceiling on what one address can make the server do.
 */
export const PUBLIC_READS_PER_MINUTE = 600;
/** `POST /auth/logout` per client address and minute (each one deletes a session row). */
export const LOGOUTS_PER_MINUTE = 60;
/** `GET /auth/hue/callback` per client address and minute (each one looks up and spends a state). */
export const HUE_CALLBACKS_PER_MINUTE = 30;
/**
 * `GET /api/downloads/:product` per client address and minute, counting every request (a full
 * download, a resumed one with `Range`, a revalidation with `If-None-Match`): a household fetching an
 * installer or two, resuming dropped ones and a download manager's few parallel parts fit; thirty
 * parallel copies of an 87 MB file from one address (2.6 GB in seconds) do not.
 */
export const DOWNLOADS_PER_MINUTE = 10;
/**
 * The companion's local bridge (DESIGN §9): reached by the web app only after a user gesture, on
 * 127.0.0.1 at the well-known port, or at the port a companion reports (`--port`).
 */
export const COMPANION_BRIDGE_HOST = 'http://127.0.0.1';
export const COMPANION_BRIDGE_PORT = 47920;
export const COMPANION_BRIDGE_URL = `${COMPANION_BRIDGE_HOST}:${COMPANION_BRIDGE_PORT}`;
