// Web push (issue 31): a fan's devices (push subscriptions) and preferences per kind; the VAPID
// public key the browser subscribes with; an admin's 'Notificar a los fans' and the broadcasts'
// progress (the queues screen).
import { Type, type Static } from '@sinclair/typebox';
import { BROADCAST_PUSH_KINDS, PUSH_KINDS, PUSH_LIMITS } from '../pushRules.ts';
import { IsoDate, Uuid } from './common.ts';
import { defineRoutes } from '../route.ts';

/** base64url without padding (a browser's PushSubscription.toJSON() keys), padding tolerated. */
const Base64Url = (minLength: number, maxLength: number) => Type.String({ minLength, maxLength, pattern: '^[A-Za-z0-9_-]+={0,2}$' });

/** GET /api/push/config: whether push works here and the VAPID public key (base64url, 65 bytes uncompressed P-256). */
export const PushConfig = Type.Object({ enabled: Type.Boolean(), publicKey: Type.String() });
export type PushConfig = Static<typeof PushConfig>;

/**
 * POST /api/me/push/subscriptions: PushSubscription.toJSON() of this device. One subscription per
 * endpoint (subscribing again updates it, and moves it to the signed-in fan); `replaces`: the
 * endpoint the browser rotated away from (`pushsubscriptionchange`), removed in the same change.
 * The endpoint is a URL the worker will POST to: refused (400 'Este servicio de notificaciones no
 * está permitido') unless https on a browser's push service (PUSH_SERVICE_HOSTS) whose address is
 * public.
 */
export const PushSubscriptionInput = Type.Object(
  {
    endpoint: Type.String({ minLength: 12, maxLength: PUSH_LIMITS.endpointLength, pattern: '^https?://[^\\s]+$' }),
    expirationTime: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    keys: Type.Object(
      {
        /** The device's P-256 public key: 65 bytes, 87 base64url characters. */
        p256dh: Base64Url(86, 88),
        /** The auth secret: 16 bytes, 22 base64url characters. */
        auth: Base64Url(22, 24),
      },
      { additionalProperties: false },
    ),
    replaces: Type.Optional(Type.String({ minLength: 12, maxLength: PUSH_LIMITS.endpointLength, pattern: '^https?://[^\\s]+$' })),
  },
  { additionalProperties: false },
);
export type PushSubscriptionInput = Static<typeof PushSubscriptionInput>;

/** A device as the settings list it: never its endpoint or keys. */
export const PushDevice = Type.Object({
  id: Uuid,
  /** 'Chrome en Android', 'Safari en iPhone', … from the user agent at subscription. */
  browser: Type.String(),
  createdAt: IsoDate,
  /** The last time the device subscribed again or a push to it was accepted. */
  lastSeenAt: IsoDate,
});
export type PushDevice = Static<typeof PushDevice>;

export const PushPreferences = Type.Object(
  Object.fromEntries(PUSH_KINDS.map((kind) => [kind, Type.Boolean()])) as Record<(typeof PUSH_KINDS)[number], ReturnType<typeof Type.Boolean>>,
  {
    additionalProperties: false,
  },
);
export type PushPreferences = Static<typeof PushPreferences>;

/** GET /api/me/push: the fan's devices (newest first) and preferences (defaults until saved). */
export const PushSettings = Type.Object({ devices: Type.Array(PushDevice), preferences: PushPreferences });
export type PushSettings = Static<typeof PushSettings>;

export const PushDeviceParams = Type.Object({ deviceId: Uuid }, { additionalProperties: false });
export type PushDeviceParams = Static<typeof PushDeviceParams>;

export const BroadcastKindSchema = Type.Union(BROADCAST_PUSH_KINDS.map((kind) => Type.Literal(kind)));

/** A broadcast (a poll's 'Votación abierta' or 'Cierra pronto' to every opted-in device) and its progress. */
export const PushBroadcastView = Type.Object({
  id: Uuid,
  kind: BroadcastKindSchema,
  pollId: Uuid,
  pollTitle: Type.String(),
  /** 'queued' → 'sending' → 'done'. */
  status: Type.Union([Type.Literal('queued'), Type.Literal('sending'), Type.Literal('done')]),
  /** Devices it goes to (known once the worker has listed them), and how each ended so far. */
  total: Type.Integer({ minimum: 0 }),
  sent: Type.Integer({ minimum: 0 }),
  /** Devices the push service said no longer exist (404/410): removed. */
  gone: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
  /** The admin who asked (null for the scheduled 'Cierra pronto'). */
  createdBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: IsoDate,
  finishedAt: Type.Union([IsoDate, Type.Null()]),
});
export type PushBroadcastView = Static<typeof PushBroadcastView>;

/** GET /api/admin/push/broadcasts: the latest 20, newest first. */
export const PushBroadcastList = Type.Object({ items: Type.Array(PushBroadcastView) });
export type PushBroadcastList = Static<typeof PushBroadcastList>;

export const NotifyPollParams = Type.Object({ pollId: Uuid }, { additionalProperties: false });
export type NotifyPollParams = Static<typeof NotifyPollParams>;

const pushRoute = { tags: ['push'] } as const;

export const PUSH_ROUTES = defineRoutes({
  pushConfig: {
    ...pushRoute,
    method: 'GET',
    path: '/api/push/config',
    status: 200,
    summary: 'Whether web push works on this server, and the VAPID public key to subscribe with',
    response: PushConfig,
    errors: [429],
    rateLimit: 'push.read',
  },
  pushSettings: {
    ...pushRoute,
    method: 'GET',
    path: '/api/me/push',
    status: 200,
    summary: "The signed-in fan's push devices and preferences per kind",
    response: PushSettings,
    errors: [401, 429],
    rateLimit: 'push.read',
    audience: 'user',
  },
  subscribePush: {
    ...pushRoute,
    method: 'POST',
    path: '/api/me/push/subscriptions',
    status: 201,
    summary: 'Subscribe this device (one subscription per endpoint; `replaces` removes a rotated one)',
    body: PushSubscriptionInput,
    response: PushDevice,
    errors: [400, 401, 403, 409, 429],
    rateLimit: 'push.write',
    audience: 'user',
  },
  removePushDevice: {
    ...pushRoute,
    method: 'DELETE',
    path: '/api/me/push/subscriptions/:deviceId',
    status: 200,
    summary: "Remove one of the fan's devices ('Quitar')",
    params: PushDeviceParams,
    response: PushSettings,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'push.write',
    audience: 'user',
  },
  updatePushPreferences: {
    ...pushRoute,
    method: 'PUT',
    path: '/api/me/push/preferences',
    status: 200,
    summary: 'Save the push preferences per kind (every kind, true or false)',
    body: PushPreferences,
    response: PushPreferences,
    errors: [400, 401, 403, 429],
    rateLimit: 'push.write',
    audience: 'user',
  },
  notifyPoll: {
    ...pushRoute,
    method: 'POST',
    path: '/api/admin/polls/:pollId/notify',
    status: 202,
    summary: "'Notificar a los fans' (site admins): 'Votación abierta' to every opted-in device, once per poll; audit log",
    params: NotifyPollParams,
    response: PushBroadcastView,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'admin.write',
  },
  pushBroadcasts: {
    ...pushRoute,
    method: 'GET',
    path: '/api/admin/push/broadcasts',
    status: 200,
    summary: 'The latest push broadcasts and their progress (site admins; the queues screen)',
    response: PushBroadcastList,
    errors: [401, 403, 429],
    rateLimit: 'admin.read',
  },
});
