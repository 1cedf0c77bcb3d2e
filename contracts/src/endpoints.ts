// Every HTTP route of the API by name: the declarations of contracts/src/api/**.ts (defineRoutes),
// merged. The server registers each handler from its declaration (server/src/http/serve.ts); the
// web's client is typed by this table (type-only import, nothing of TypeBox reaches the bundle) and
// reads the method, path and status from endpointRoutes.ts, generated from it (npm run gen:routes).
import type { ApiRoute } from './route.ts';
import { AUTH_ROUTES } from './api/auth.ts';
import { HEALTH_ROUTES } from './api/health.ts';
import { NOTIFICATION_ROUTES } from './api/notifications.ts';
import { PAGE_VIEW_ROUTES } from './api/pageViews.ts';
import { POLL_ROUTES } from './api/polls.ts';
import { PROFILE_ROUTES } from './api/profiles.ts';
import { SHARE_ROUTES } from './api/shares.ts';
import { SITE_ROUTES } from './api/site.ts';
import { VOTE_ROUTES } from './api/votes.ts';
import { WALL_ROUTES } from './api/wall.ts';
import { GROUP_ROUTES } from './api/groups.ts';
import { MODERATION_ROUTES } from './api/moderation.ts';
import { PUSH_ROUTES } from './api/push.ts';
import { ADMIN_ABUSE_ROUTES } from './api/admin/abuse.ts';
import { ADMIN_AUDIT_ROUTES } from './api/admin/audit.ts';
import { ADMIN_CATALOG_ROUTES } from './api/admin/catalog.ts';
import { ADMIN_POLL_ROUTES } from './api/admin/polls.ts';
import { ADMIN_QUEUE_ROUTES } from './api/admin/queues.ts';
import { ADMIN_REPORT_ROUTES } from './api/admin/reports.ts';
import { ADMIN_USER_ROUTES } from './api/admin/users.ts';

type Merged<T extends readonly object[]> = T extends readonly [infer First, ...infer Rest extends readonly object[]] ? First & Merged<Rest> : unknown;

/** Merges route groups; a name or a method and path declared twice stops the process at load. */
function mergeRoutes<const T extends readonly Record<string, ApiRoute>[]>(...groups: T): Merged<T> {
  const merged: Record<string, ApiRoute> = {};
  const seen = new Set<string>();
  for (const group of groups) {
    for (const [name, route] of Object.entries(group)) {
      const where = `${route.method} ${route.path}`;
      if (name in merged) throw new Error(`route name ${name} declared twice`);
      if (seen.has(where)) throw new Error(`route ${where} declared twice`);
      merged[name] = route;
      seen.add(where);
    }
  }
  return merged as Merged<T>;
}

export const ENDPOINTS = mergeRoutes(
  HEALTH_ROUTES,
  SITE_ROUTES,
  AUTH_ROUTES,
  PROFILE_ROUTES,
  POLL_ROUTES,
  VOTE_ROUTES,
  SHARE_ROUTES,
  PAGE_VIEW_ROUTES,
  WALL_ROUTES,
  GROUP_ROUTES,
  MODERATION_ROUTES,
  NOTIFICATION_ROUTES,
  PUSH_ROUTES,
  ADMIN_CATALOG_ROUTES,
  ADMIN_POLL_ROUTES,
  ADMIN_USER_ROUTES,
  ADMIN_REPORT_ROUTES,
  ADMIN_ABUSE_ROUTES,
  ADMIN_AUDIT_ROUTES,
  ADMIN_QUEUE_ROUTES,
);

export type Endpoints = typeof ENDPOINTS;
