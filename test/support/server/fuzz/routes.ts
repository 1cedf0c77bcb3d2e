import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

/** The parts of a route schema the fuzzer reads (plain JSON Schema objects: TypeBox builds them). */
export interface RouteSchema {
  params?: JsonSchema;
  querystring?: JsonSchema;
  body?: JsonSchema;
  headers?: JsonSchema;
  /** Request content types other than JSON (`multipart/form-data` for uploads). */
  consumes?: string[];
  response?: Record<string, unknown>;
  hide?: boolean;
}

export type JsonSchema = Record<string, unknown>;

/** One method of one registered route, as the app itself registered it. */
export interface CatalogueRoute {
  method: string;
  /** The registered pattern, e.g. `/api/polls/:pollId` or `/*`. */
  url: string;
  readonly schema: RouteSchema | undefined;
  /** The route's `config` (csrf policy, rate limit…). */
  readonly config: Record<string, unknown> | undefined;
  websocket: boolean;
  /** Requests this route answered (its own hooks ran), counted by the instrumentation. */
  hits: number;
}

export const routeKey = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

/**
 * Collects every route through BuildAppOptions.onRoute (registered before any plugin, so no route
 * escapes it) and instruments each one with an onSend hook recording which route answered the
 * last request: a malformed URL may land on the 404 handler or on another route instead.
 */
export class RouteCatalogue {
  readonly routes: CatalogueRoute[] = [];
  private readonly byKey = new Map<string, CatalogueRoute>();
  /** The route whose hooks ran for the latest request; null when none did (404 handler, parser errors). */
  lastAnswered: CatalogueRoute | null = null;

  readonly onRoute = (options: RouteOptions): void => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    for (const method of methods) {
      const route: CatalogueRoute = {
        method: method.toUpperCase(),
        url: options.url,
        // Read when used: onRoute hooks registered later (errors, rate limits) may still replace it.
        get schema() {
          return options.schema as RouteSchema | undefined;
        },
        get config() {
          return options.config as Record<string, unknown> | undefined;
        },
        websocket: options.websocket === true,
        hits: 0,
      };
      this.routes.push(route);
      this.byKey.set(routeKey(route), route);
    }
    const existing = options.onSend === undefined ? [] : Array.isArray(options.onSend) ? options.onSend : [options.onSend];
    options.onSend = [...existing, this.markAnswered];
  };

  private readonly markAnswered = (request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    const route = this.byKey.get(`${request.method} ${request.routeOptions.url}`) ?? null;
    if (route) route.hits += 1;
    this.lastAnswered = route;
    done(null, payload);
  };

  /** The statuses a route declares in its response schema (`200`, `4xx`, `default`), null without one. */
  static declaredStatuses(route: CatalogueRoute): string[] | null {
    const response = route.schema?.response;
    return response ? Object.keys(response) : null;
  }

  /** Whether the route declares `status`; a route without a response schema declares anything (the fuzz test allow-lists those). */
  static declares(route: CatalogueRoute, status: number): boolean {
    const declared = RouteCatalogue.declaredStatuses(route);
    if (!declared) return true;
    return declared.some((key) => key === String(status) || key === `${String(status)[0]}xx` || key === 'default');
  }
}
