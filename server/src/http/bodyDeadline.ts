import { Socket } from 'node:net';
import type { onResponseHookHandler, preParsingHookHandler } from 'fastify';
import { errorBody } from './errors.ts';

/**
 * Every request body gets a deadline from the moment parsing starts: a client that sends its
 * headers and then trickles the body, or never finishes it, is answered 408 and its connection
 * closed, as Node does for slow headers. Uploads get longer deadlines than the rest (a photo album
 * from a phone needs minutes). Node's own requestTimeout (headers and body together, counted from
 * the request's first byte) is set above the longest of them (app.ts), so these are the deadlines
 * that apply. The timer is only armed when the body is still arriving as parsing starts (a small
 * body usually came with its headers).
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's body deadline instead of the server's: 'upload' (one image) or 'albumUpload' (up to 10). */
    bodyDeadline?: 'upload' | 'albumUpload';
  }
}

export interface BodyDeadlines {
  /** Any other body. */
  requestMs: number;
  /** A form with one image (a comment, an avatar or banner, a contestant photo). */
  uploadMs: number;
  /** A post of up to 10 images. */
  albumUploadMs: number;
}

export function bodyDeadline(deadlines: BodyDeadlines): preParsingHookHandler {
  const response = JSON.stringify(errorBody(408, 'La solicitud tardó demasiado en llegar'));
  const raw408 = `HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(response)}\r\n\r\n${response}`;
  return (request, reply, payload, done) => {
    const req = request.raw;
    if (!req.complete) {
      const kind = request.routeOptions.config?.bodyDeadline;
      const deadline = kind ? deadlines[`${kind}Ms`] : deadlines.requestMs;
      const timer = setTimeout(() => {
        if (req.complete) return;
        request.log.info('request body not received in time; answering 408');
        const socket = req.socket;
        if (!reply.raw.headersSent && socket.writable) socket.write(raw408);
        socket.destroySoon();
      }, deadline);
      timer.unref();
      // The body may never be read (a route answering without it, or an injected request): the
      // answer going out ends the deadline too.
      const clear = () => clearTimeout(timer);
      req.once('end', clear);
      req.once('close', clear);
      reply.raw.once('finish', clear);
      reply.raw.once('close', clear);
    }
    done(null, payload);
  };
}

/**
 * An answer sent before its request's body was read (a refusal in an onRequest hook: cross-site,
 * rate limit, signed out) leaves Node reading the rest of the body to keep the connection, and
 * the deadline above never started. This bounds that read to `ms`, then cuts the connection: Node's
 * own requestTimeout, now set above the longest upload deadline, would allow minutes.
 */
export function unreadBodyDeadline(ms: number): onResponseHookHandler {
  return (request, _reply, done) => {
    const req = request.raw;
    // An injected request (app.inject) has no socket to cut.
    if (!req.complete && req.socket instanceof Socket && !req.socket.destroyed) {
      const timer = setTimeout(() => {
        if (!req.complete) req.socket.destroy();
      }, ms);
      timer.unref();
      const clear = () => clearTimeout(timer);
      req.once('end', clear);
      req.once('close', clear);
    }
    done();
  };
}
