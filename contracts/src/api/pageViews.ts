import { Type, type Static } from '@sinclair/typebox';
import { SAFE_PATH_PATTERN, SafeText } from './common.ts';
import { defineRoutes, NoContent } from '../route.ts';

export const DEVICE_TYPES = ['mobile', 'desktop'] as const;

/** POST /api/page-views, accepted from visitors and signed-in users. Answers 204. */
export const PageViewInput = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: 2048, pattern: SAFE_PATH_PATTERN }),
    referrer: Type.Union([SafeText({ maxLength: 2048 }), Type.Null()]),
    sessionId: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
    deviceType: Type.Union(DEVICE_TYPES.map((d) => Type.Literal(d))),
  },
  { additionalProperties: false },
);
export type PageViewInput = Static<typeof PageViewInput>;

export const PAGE_VIEW_ROUTES = defineRoutes({
  pageView: {
    method: 'POST',
    path: '/api/page-views',
    status: 204,
    tags: ['analytics'],
    summary: 'Record a page view (visitors and signed-in users)',
    body: PageViewInput,
    response: NoContent,
    errors: [400, 403, 429],
    rateLimit: 'page-views.record',
  },
});
