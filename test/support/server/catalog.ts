// Helpers of the catalogue's tests: an admin calling the API, and the audit log as written.
import type { LightMyRequestResponse } from 'fastify';
import type { Database } from '@tribuna/drizzle/client';
import { buildUser } from '../factories.ts';
import type { App } from '../../../server/src/app.ts';
import { asUser, signIn } from './sessions.ts';

export interface AdminCaller {
  id: string;
  headers: Record<string, string>;
  call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<LightMyRequestResponse>;
}

export async function signInAdmin(app: App, database: Database, role: 'admin' | 'user' | 'moderator' = 'admin'): Promise<AdminCaller> {
  const user = await buildUser(database.db, { role });
  const headers = asUser(await signIn(app, user));
  return {
    id: user.id,
    headers,
    call: (method, url, payload) => app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) }),
  };
}

export interface AuditRow {
  admin_id: string | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export async function auditRows(database: Database): Promise<AuditRow[]> {
  return database.sql<AuditRow[]>`SELECT admin_id, action, entity_type, entity_id, before, after FROM admin_audit_log ORDER BY id`;
}
