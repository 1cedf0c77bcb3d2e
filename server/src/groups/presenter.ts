import type { GroupCard, GroupMember, GroupPerson } from '@tribuna/contracts/api/groups';
import type { GroupCardRow, MemberRow, PersonRow } from './repository.ts';

export function presentCard(row: GroupCardRow): GroupCard {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    avatarUrl: row.avatar_url,
    coverUrl: row.cover_url,
    privacy: row.privacy,
    memberCount: row.member_count,
    relation: row.relation,
  };
}

const personOf = (row: MemberRow | PersonRow) => ({ id: row.user_id, displayName: row.display_name, username: row.username, avatarUrl: row.avatar_url });

export function presentMember(row: MemberRow): GroupMember {
  return { user: personOf(row), role: row.role, joinedAt: row.joined_at };
}

export function presentPerson(row: PersonRow): GroupPerson {
  return { user: personOf(row), createdAt: row.created_at };
}
