import type { CreateGroupInput, GroupMember, GroupPerson, UpdateGroupInput } from '@tribuna/contracts/api/groups';
import type { GroupRole } from '@tribuna/contracts/groupRules';
import { callApi } from '../../lib/api';
import type { Page } from '../../lib/usePagedList';

/** One page of the directory ('Tus grupos' on the first page only); `q` searches names. */
export const fetchDirectory = (q: string, cursor: string | null, signal?: AbortSignal) =>
  callApi('listGroups', { query: { q: q || undefined, cursor: cursor ?? undefined }, signal });

export const fetchGroup = (groupId: string, signal?: AbortSignal) => callApi('getGroup', { params: { groupId }, signal });

export const createGroup = (body: CreateGroupInput) => callApi('createGroup', { body });

export const updateGroup = (groupId: string, body: UpdateGroupInput) => callApi('updateGroup', { params: { groupId }, body });

export const deleteGroup = (groupId: string) => callApi('deleteGroup', { params: { groupId } });

/** 'Unirme' (public) or 'Solicitar unirme' (private): answers the group as the viewer now sees it. */
export const joinGroup = (groupId: string) => callApi('joinGroup', { params: { groupId } });

/** 'Salir del grupo' or 'Cancelar solicitud'; the last admin names `successorId`. */
export const leaveGroup = (groupId: string, successorId?: string) => callApi('leaveGroup', { params: { groupId }, body: successorId ? { successorId } : {} });

/** A group's people keyed by their user id (usePagedList pages by `id`). */
const byUser = <T extends { user: { id: string } }>(page: { items: T[]; nextCursor: string | null }): Page<T & { id: string }> => ({
  items: page.items.map((item) => ({ ...item, id: item.user.id })),
  nextCursor: page.nextCursor,
});

export type MemberRow = GroupMember & { id: string };
export type PersonRow = GroupPerson & { id: string };

export const fetchMembers = (groupId: string, cursor: string | null, signal?: AbortSignal) =>
  callApi('listGroupMembers', { params: { groupId }, query: { cursor: cursor ?? undefined }, signal }).then(byUser);

export const fetchRequests = (groupId: string, cursor: string | null, signal?: AbortSignal) =>
  callApi('listGroupRequests', { params: { groupId }, query: { cursor: cursor ?? undefined }, signal }).then(byUser);

export const fetchBans = (groupId: string, cursor: string | null, signal?: AbortSignal) =>
  callApi('listGroupBans', { params: { groupId }, query: { cursor: cursor ?? undefined }, signal }).then(byUser);

export const changeRole = (groupId: string, userId: string, role: GroupRole) => callApi('updateGroupMember', { params: { groupId, userId }, body: { role } });

/** Removes a member; `ban` also keeps them out (the group's admins). */
export const removeMember = (groupId: string, userId: string, ban: boolean) =>
  callApi('removeGroupMember', { params: { groupId, userId }, query: { ban: ban ? 'true' : undefined } });

export const answerRequest = (groupId: string, userId: string, approve: boolean) =>
  callApi('answerGroupRequest', { params: { groupId, userId }, body: { approve } });

export const unban = (groupId: string, userId: string) => callApi('unbanGroupMember', { params: { groupId, userId } });
