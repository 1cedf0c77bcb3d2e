import type { Server, ServerResponse } from 'node:http';

/** How often idle connections are closed while draining. */
const IDLE_SWEEP_MS = 50;

/**
 * Lets a graceful stop end keep-alive connections. server.close() (what app.close() does) stops
 * accepting connections and closes the idle ones once, then waits for every other connection to
 * end; but a keep-alive connection whose request was in flight goes idle after its response and
 * stays open until keepAliveTimeout, far past the shutdown grace, so the process never exits
 * cleanly. While draining, the responses not yet started say `Connection: close` (Node then ends the
 * socket after them) and connections that went idle anyway are closed as they do.
 */
export function connectionDrainer(server: Server): { start(): void } {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  // First, so it runs before the app's own listener may answer.
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (draining) {
      response.shouldKeepAlive = false;
      return;
    }
    inFlight.add(response);
    response.once('close', () => inFlight.delete(response));
  });
  return {
    start() {
      if (draining) return;
      draining = true;
      for (const response of inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
      inFlight.clear();
      setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
    },
  };
}
