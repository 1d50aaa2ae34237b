/** The desktop app's download (the server answers with the file, or a clear 404 page). */
export const DESKTOP_DOWNLOAD_URL = '/api/downloads/flaglight-setup';
/** Used until GET /api/config answers, and when it cannot. */
export const FALLBACK_SUPPORT_EMAIL = 'support@flaglight.app';
