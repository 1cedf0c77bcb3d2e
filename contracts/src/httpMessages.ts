// Dependency-free, so the web bundle imports the same strings the server answers with.

/** The 429 message of every rate-limited route (server/src/http/rateLimits.ts). */
export const TOO_MANY_REQUESTS_MESSAGE = 'Demasiadas solicitudes. Intenta de nuevo en unos segundos.';
