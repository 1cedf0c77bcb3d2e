import type { ProfileCommentPage, ProfileGroupList, ProfileStats, PublicProfile, VoteHistory } from '@tribuna/contracts/api/profiles';
import { PROFILE_LIMITS, PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { badRequest, forbidden, notFound, unauthorized } from '../../http/errors.ts';
import { NOT_AUTHENTICATED } from '../plugin.ts';
import { MODERATION_MESSAGES } from '@tribuna/contracts/moderationRules';
import { drizzleRunner } from '@tribuna/drizzle/pipelined';
import { mayReadVoteHistory, profileRelation, type Viewer } from '../../access/policy.ts';
import { presentProfileComment, presentProfileGroup, presentPublicProfile, presentVote } from './presenter.ts';
import * as repo from './tabsRepository.ts';
import type { ListPosition } from './tabsRepository.ts';

// A profile's header and tabs as anybody may see them (GET /api/profiles/:userId/…). The posts
// tab is the wall's feed with `userId` (wall/service.ts getFeed).

/** Who reads a profile: a visitor (null) or a signed-in user; roles give no extra sight here. */
export type ProfileReader = { id: string } | null;

/** Groups listed on the groups tab at most. */
export const PROFILE_GROUPS_MAX = 100;
/** Characters of a post quoted on the comments tab. */
export const POST_EXCERPT_CHARS = 280;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Admins included: a profile shows another user only what any reader may see (spec §6). */
const asViewer = (reader: ProfileReader): Viewer | null => (reader ? { id: reader.id, isAdmin: false } : null);

export function encodeListCursor(position: { atMicros: bigint | string; id: string }): string {
  return Buffer.from(`c.${position.atMicros}.${position.id}`).toString('base64url');
}

export function decodeListCursor(cursor: string): ListPosition | null {
  const [kind, micros, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (extra !== undefined || kind !== 'c' || !micros || !/^\d{1,17}$/.test(micros) || !id || !UUID.test(id)) return null;
  return { atMicros: BigInt(micros), id };
}

/**
 * The profile's tabs may be read by `reader`: 404 when there is no such profile, or when its owner
 * blocked the reader (issue 29: 'Usuario no encontrado', as the profile itself). Whether the reader
 * blocked its owner: then they see its header (to unblock) and its tabs empty.
 */
async function tabsStanding(db: DbOrTx, userId: string, reader: ProfileReader): Promise<{ readerBlocked: boolean }> {
  const relation = await profileRelation(drizzleRunner(db), userId, reader?.id ?? null);
  if (!relation) throw notFound(PROFILE_MESSAGES.profileNotFound);
  if (relation.blocksViewer) throw notFound(MODERATION_MESSAGES.userNotFound);
  return { readerBlocked: relation.viewerBlocked };
}

/**
 * GET /api/profiles/:userId (answers with a session are never cached: identity/plugin.ts, so
 * viewerFollows, viewerMuted and viewerBlocked are the reader's). Not found for somebody its owner
 * blocked (issue 29); the blocker still reads it, with viewerBlocked, to take the block back.
 */
export async function getPublicProfile(db: DbOrTx, userId: string, reader: ProfileReader): Promise<PublicProfile> {
  const row = await repo.findPublicProfile(db, userId, reader?.id ?? null);
  if (!row) throw notFound(PROFILE_MESSAGES.profileNotFound);
  if (row.blocks_viewer) throw notFound(MODERATION_MESSAGES.userNotFound);
  return presentPublicProfile(row);
}

/** GET /api/profiles/:userId/stats: all votes; the posts and comments this reader may see (none of a profile they blocked). */
export async function getStats(db: DbOrTx, userId: string, reader: ProfileReader): Promise<ProfileStats> {
  const { readerBlocked } = await tabsStanding(db, userId, reader);
  const counts = await repo.profileCounts(db, userId, asViewer(reader));
  return readerBlocked ? { ...counts, posts: 0, comments: 0 } : counts;
}

/** GET /api/profiles/:userId/votes: the owner's latest 50 vote rows; private to anybody else. */
export async function getVoteHistory(db: DbOrTx, userId: string, reader: ProfileReader): Promise<VoteHistory> {
  if (!reader) throw unauthorized(NOT_AUTHENTICATED);
  if (!mayReadVoteHistory(reader, userId)) throw forbidden(PROFILE_MESSAGES.votingHistoryPrivate);
  const rows = await repo.voteHistory(db, userId, PROFILE_LIMITS.votingHistory);
  return { items: rows.map(presentVote) };
}

/** GET /api/profiles/:userId/comments: pages of 20, newest first. */
export async function getComments(db: DbOrTx, userId: string, reader: ProfileReader, cursor: string | undefined): Promise<ProfileCommentPage> {
  const after = cursor ? decodeListCursor(cursor) : null;
  if (cursor && !after) throw badRequest(WALL_MESSAGES.badCursor);
  const { readerBlocked } = await tabsStanding(db, userId, reader);
  if (readerBlocked) return { items: [], nextCursor: null };
  const size = PROFILE_LIMITS.pageSize;
  const rows = await repo.commentsPage(db, userId, asViewer(reader), after, size + 1, POST_EXCERPT_CHARS);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    items: page.map(presentProfileComment),
    nextCursor: rows.length > size && last ? encodeListCursor({ atMicros: last.sort_micros, id: last.id }) : null,
  };
}

/** GET /api/profiles/:userId/groups: the owner's every membership, others' public ones. */
export async function getGroups(db: DbOrTx, userId: string, reader: ProfileReader): Promise<ProfileGroupList> {
  const { readerBlocked } = await tabsStanding(db, userId, reader);
  if (readerBlocked) return { items: [] };
  const rows = await repo.memberships(db, userId, asViewer(reader), PROFILE_GROUPS_MAX);
  return { items: rows.map(presentProfileGroup) };
}
