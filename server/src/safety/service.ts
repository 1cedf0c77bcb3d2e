import type { FastifyBaseLogger } from 'fastify';
import type { SafetyEntry, SafetyPage, SafetyState } from '@tribuna/contracts/api/moderation';
import { MODERATION_LIMITS, MODERATION_MESSAGES } from '@tribuna/contracts/moderationRules';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import type { Db } from '@tribuna/drizzle/client';
import { drizzleRunner, type SqlRunner } from '@tribuna/drizzle/pipelined';
import { runAfterCommit, type AfterCommit } from '../events/bus.ts';
import type { FollowChange } from '../follows/activity.ts';
import { endFollowsBetween, lockRelation } from '../follows/service.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { decodeListCursor, encodeListCursor } from '../identity/profiles/tabs.ts';
import type { HiddenAuthorFlags } from './flags.ts';
import * as repo from './repository.ts';

// A fan's own tools (issue 29): 'Silenciar' (one way: the muted person's posts and comments leave
// the muter's walls, threads and notifications) and 'Bloquear' (both ways: neither sees, comments on,
// reacts to, mentions or follows the other; their follows end). What each hides is the access
// policy's (access/predicates.ts); this domain writes the rows and keeps the walls' flags current.

export interface SafetyContext {
  /** For transactions. */
  db: Db;
  /** Reads outside transactions. */
  reader: SqlRunner;
  /** Whom a reader hides (the walls' path): dropped for both people on every change. */
  flags: HiddenAuthorFlags;
  /** The follows domain's followers of an ended follow, inside the block's transaction (the 'X empezó a seguirte' notification goes). */
  joinFollowChange(tx: SqlRunner, change: FollowChange): Promise<AfterCommit[]>;
  /** Tells every instance, after commit, that the mutes or blocks of these people changed (the `safety.changed` event). Never throws. */
  publish(change: { userIds: string[]; blocked: boolean }): Promise<void>;
  log: FastifyBaseLogger;
}

type Change = 'mute' | 'unmute' | 'block' | 'unblock';

/** After a committed change: the flags of both people here at once, then on every instance (and the live subscriptions of a new block). */
async function announce(ctx: SafetyContext, userId: string, targetId: string, blocked: boolean): Promise<void> {
  ctx.flags.drop([userId, targetId]);
  await ctx.publish({ userIds: [userId, targetId], blocked });
}

/**
 * PUT and DELETE /api/profiles/:userId/mute and /block (idempotent: doing it again changes nothing
 * and tells nobody). Never oneself (400). Muting or blocking: not an unknown or deleted account (404).
 * Undoing: an unknown account is 404, as is a deleted one with nothing to undo (an account deletion
 * removes its mutes and blocks both ways). A block ends the follows between the two, both ways, in
 * its transaction (their counters by the follows' triggers, their notifications by the follows'
 * event), serialised with any follow of the two (follows/repository.ts lockRelation): no follow
 * outlives a block, and none begins while it stands (follows/service.ts refuses it).
 */
export async function change(ctx: SafetyContext, kind: Change, userId: string, targetId: string): Promise<SafetyState> {
  if (userId === targetId) throw badRequest(kind === 'mute' || kind === 'unmute' ? MODERATION_MESSAGES.muteSelf : MODERATION_MESSAGES.blockSelf);
  const { state, changed, after } = await ctx.db.transaction(async (tx) => {
    const runner = drizzleRunner(tx);
    let changed: boolean;
    const work: AfterCommit[] = [];
    if (kind === 'mute' || kind === 'block') {
      if (kind === 'block') await lockRelation(runner, userId, targetId);
      const target = await repo.lockTarget(runner, targetId);
      if (!target || target.deleted) throw notFound(MODERATION_MESSAGES.userNotFound);
      if (kind === 'mute') changed = await repo.insertMute(runner, userId, targetId);
      else {
        changed = await repo.insertBlock(runner, userId, targetId);
        if (changed) work.push(...(await endFollowsBetween(runner, userId, targetId, ctx.joinFollowChange)));
      }
    } else {
      changed = kind === 'unmute' ? await repo.deleteMute(runner, userId, targetId) : await repo.deleteBlock(runner, userId, targetId);
      if (!changed && !(await repo.activeProfileExists(runner, targetId))) throw notFound(MODERATION_MESSAGES.userNotFound);
    }
    return { state: await repo.stateOf(runner, userId, targetId), changed, after: work };
  });
  if (changed) await announce(ctx, userId, targetId, kind === 'block');
  await runAfterCommit(after, ctx.log, `after-commit work of a ${kind}`);
  return state;
}

function presentEntry(row: repo.SafetyEntryRow): SafetyEntry {
  return {
    user: { id: row.id, displayName: row.display_name, username: row.username, avatarUrl: row.avatar_url },
    since: row.since,
  };
}

/** GET /api/me/muted and /api/me/blocked: the viewer's own lists, newest first, 30 a page. */
export async function list(ctx: SafetyContext, which: repo.SafetyList, userId: string, cursor: string | undefined): Promise<SafetyPage> {
  const after = cursor ? decodeListCursor(cursor) : null;
  if (cursor && !after) throw badRequest(WALL_MESSAGES.badCursor);
  const size = MODERATION_LIMITS.safetyPageSize;
  const rows = await repo.listPage(ctx.reader, which, userId, after, size + 1);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    items: page.map(presentEntry),
    nextCursor: rows.length > size && last ? encodeListCursor({ atMicros: last.sort_micros, id: last.id }) : null,
  };
}
