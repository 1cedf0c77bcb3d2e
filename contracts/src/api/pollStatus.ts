import { Type } from '@sinclair/typebox';

/** A poll's stored status: the one definition (HTTP contracts, live messages, server and web). */
export const POLL_STATUSES = ['draft', 'active', 'closed'] as const;
export const PollStatus = Type.Union(POLL_STATUSES.map((s) => Type.Literal(s)));
export type PollStatus = (typeof POLL_STATUSES)[number];
