import type { preParsingHookHandler } from 'fastify';
import { errorBody } from './errors.ts';

/**
 * Node's requestTimeout stops counting once the headers are in (Node 20): a client that sends its
 * headers and then trickles the body, or never finishes it, would hold the request for as long as
 * it keeps the socket busy. This preParsing hook gives the body `ms` to arrive, then answers 408
 * and closes the connection, as Node itself does for slow headers. The timer is only armed when
 * the body is still arriving as parsing starts (a small body usually came with its headers).
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's body deadline instead of the server's (uploads of several images from a phone need minutes). */
    bodyDeadlineMs?: number;
  }
}

export function bodyDeadline(ms: number): preParsingHookHandler {
  const response = JSON.stringify(errorBody(408, 'La solicitud tardó demasiado en llegar'));
  const raw408 = `HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(response)}\r\n\r\n${response}`;
  return (request, reply, payload, done) => {
    const req = request.raw;
    if (!req.complete) {
      const deadline = request.routeOptions.config?.bodyDeadlineMs ?? ms;
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
