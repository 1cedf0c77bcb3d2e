// One HTTP route, declared once: its method, path, schemas, answers, rate limit and audience. The
// server registers its handler from this declaration (server/src/http/serve.ts), its OpenAPI page
// reads it, and the web's client is typed by it (web/src/lib/api.ts; the method, path and status
// reach the bundle through the generated endpointRoutes.ts, never TypeBox).
import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorBody } from './api/common.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call a signed-in route, checked before the body is read (server/src/identity/plugin.ts). */
export type RouteAudience = 'session' | 'user' | 'writer';

export interface ApiRoute {
  method: HttpMethod;
  /** Full path with `:name` parameters, e.g. '/api/polls/:pollId/votes'. */
  path: string;
  /** The success status; its body is `response` (NoContent for 204). */
  status: number;
  response: TSchema;
  /** Every other status the route may answer, each with ErrorBody (429 included). */
  errors: readonly number[];
  /** Other statuses whose body is not ErrorBody (the health probe's degraded 503). */
  otherResponses?: Readonly<Record<number, TSchema>>;
  params?: TSchema;
  querystring?: TSchema;
  headers?: TSchema;
  /** A JSON body; a multipart route declares none and says so in `consumes`. */
  body?: TSchema;
  /** The entry of the server's rate-limit table (server/src/http/rateLimits.ts), or false with a reason in the route. */
  rateLimit: string | false;
  audience?: RouteAudience;
  tags: readonly string[];
  summary: string;
  description?: string;
  consumes?: readonly string[];
}

/** The body of a 204 (and of nothing). */
export const NoContent = Type.Null();

/** Routes by name: the names the web's `callApi` and the server's `serve` use. */
export function defineRoutes<const T extends Record<string, ApiRoute>>(routes: T): T {
  return routes;
}

/** The response map of a route: its success and each error status. */
export function responsesOf(route: ApiRoute): Record<number, TSchema> {
  return { [route.status]: route.response, ...Object.fromEntries(route.errors.map((status) => [status, ErrorBody])), ...route.otherResponses };
}
