/**
 * Every number of SPEC §9 (and the timings of SPEC §4 that core needs), named once.
 * Durations are in milliseconds unless the name says otherwise.
 */

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

// Price and plans
export const LIFETIME_PRICE_AUD = 20;
export const LIFETIME_PRICE_CURRENCY = 'AUD';
export const TRIAL_DAYS = 7;
export const TRIAL_MS = TRIAL_DAYS * DAY_MS;
export const TRIAL_HOURS = 720;
export const TRIAL_HOURS_MS = TRIAL_HOURS * HOUR_MS;
export const REFUND_WINDOW_DAYS = 30;
/** DESIGN §6: a race weekend ends 4 h after the race start. */
export const RACE_WEEKEND_END_AFTER_RACE_MS = 4 * HOUR_MS;

// Broadcast delay
export const DEFAULT_DELAY_SECONDS = 5;
export const DEFAULT_DELAY_ENABLED = true;
export const DELAY_MIN_SECONDS = 0;
export const DELAY_MAX_SECONDS = 60;
export const DELAY_PRESET_CABLE_SECONDS = 5;
export const DELAY_PRESET_STREAMING_SECONDS = 20;
export const DELAY_PRESET_OFFICIAL_STREAMING_SECONDS = 30;
export const DELAY_RANGE_CABLE_SECONDS = [5, 10] as const;
export const DELAY_RANGE_STREAMING_SECONDS = [20, 30] as const;
export const DELAY_RANGE_OFFICIAL_STREAMING_SECONDS = [30, 40] as const;
export const DELAY_RANGE_LOW_SECONDS = [3, 5] as const;

// Cloud light provider (LIFX)
export const LIFX_TIMEOUT_MS = 30 * SECOND_MS;
export const LIFX_MAX_RETRIES = 3;
export const LIFX_RETRY_BASE_DELAY_MS = 2000;
export const LIFX_RETRY_FACTOR = 2;
export const LIFX_QUEUE_GAP_MS = 300;
export const LIFX_DEVICE_STATE_THROTTLE_MS = 100;
export const LIFX_DEVICE_FLAG_THROTTLE_MS = 500;

// Bridge provider (Hue) and polling
export const HUE_FLAG_DURATION_MS = 500;
export const POLL_INTERVAL_MS = 3 * SECOND_MS;
export const POLL_RATE_LIMIT_BACKOFF_MS = 10 * SECOND_MS;
export const POLL_ERROR_BACKOFF_MS = 5 * SECOND_MS;
export const POLL_ERROR_THRESHOLD = 3;
export const TOKEN_CACHE_MARGIN_MS = 5 * MINUTE_MS;

// Device list
export const DEVICE_PAGE_SIZE = 10;
export const DEVICE_SEARCH_THRESHOLD = 5;
export const DEVICE_MAX_PAGE_BUTTONS = 5;

// Toasts and tooltips
export const TOAST_MAX = 5;
export const TOAST_DEFAULT_DURATION_MS = 5 * SECOND_MS;
export const TOAST_SUCCESS_DURATION_MS = 4 * SECOND_MS;
export const TOAST_ERROR_DURATION_MS = 6 * SECOND_MS;
export const TOAST_WARNING_DURATION_MS = 5 * SECOND_MS;
export const TOAST_INFO_DURATION_MS = 4 * SECOND_MS;
export const TOOLTIP_DELAY_MS = 500;

// Sessions
export const CONNECT_WINDOW_BEFORE_MS = 5 * MINUTE_MS;
export const CONNECT_WINDOW_BEFORE_DELAYED_MS = 24 * HOUR_MS;
export const CONNECT_WINDOW_AFTER_MS = 4 * HOUR_MS;
export const LIVE_SESSION_MINUTES = 180;
export const LIVE_SESSION_MS = LIVE_SESSION_MINUTES * MINUTE_MS;
export const SESSION_START_SLOT_MINUTES = 30;

// Requests, popups, UI timings
export const REQUEST_TIMEOUT_MS = 10 * SECOND_MS;
export const REQUEST_MAX_RETRIES = 3;
export const POPUP_WIDTH = 600;
export const POPUP_HEIGHT = 700;
export const POPUP_TIMEOUT_MS = 60 * SECOND_MS;
export const POPUP_CLOSED_RECHECK_MS = 1 * SECOND_MS;
export const LICENSE_SUCCESS_MESSAGE_MS = 5 * SECOND_MS;
export const LICENSE_REFRESH_AFTER_MS = 1 * SECOND_MS;
export const RESET_REDIRECT_MS = 3 * SECOND_MS;
export const ROUTE_FADE_MS = 200;
export const COUNTDOWN_REFRESH_MS = 5 * SECOND_MS;
export const MOBILE_MENU_WIDTH_UNITS = 80;
export const MOBILE_MENU_MAX_VIEWPORT_PERCENT = 85;

// Validation
export const PASSWORD_MIN_LENGTH = 8;
export const MINIMUM_AGE = 13;
export const PARENTAL_CONSENT_AGE = 18;

// Light effects (SPEC §4)
export const GREEN_TRANSITION_MS = 200;
export const GREEN_DIM_AFTER_MS = 5 * SECOND_MS;
export const CAUTION_STROBE_PERIOD_MS = 100;
export const CAUTION_STROBE_CYCLES = 10;
export const CAUTION_SOLID_AFTER_MS = 1500;
export const CHECKERED_STROBE_PERIOD_MS = 200;
export const CHECKERED_STROBE_CYCLES = 15;
export const CHECKERED_SOLID_AFTER_MS = 3500;
/** Not in SPEC: how long the momentary purple of a fastest lap shows before the lights return. */
export const FASTEST_LAP_SHOW_MS = 3 * SECOND_MS;
/**
 * Not in SPEC: a test flag ("Test your lights") holds its settled look this long after its effect,
 * then the lights go back to the flag they showed before it.
 */
export const TEST_FLAG_HOLD_MS = 3 * SECOND_MS;
export const FULL_BRIGHTNESS = 1;
export const DIM_BRIGHTNESS = 0.5;
export const HUE_TEST_PULSE_BRIGHTNESS = 100;
export const HUE_TEST_PULSE_DURATION_MS = 1000;
export const LIFX_BREATHE_PERIOD_S = 0.5;

// FAQ (SPEC §2 Help version A)
export const FAQ_QUESTION_COUNT = 18;
