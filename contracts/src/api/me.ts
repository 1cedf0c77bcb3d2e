import { Type, type Static } from '@sinclair/typebox';
import { IsoDate, Uuid } from './common.ts';

export const Profile = Type.Object({
  id: Uuid,
  displayName: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  bio: Type.Union([Type.String(), Type.Null()]),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
  bannerUrl: Type.Union([Type.String(), Type.Null()]),
  role: Type.Union([Type.Literal('admin'), Type.Literal('moderator'), Type.Literal('user')]),
  isSuspended: Type.Boolean(),
  totalPoints: Type.Integer(),
  /** "Mostrar mi nombre en las listas de votantes" (default true): false, the user's votes count but are never named. */
  showInVoterLists: Type.Boolean(),
  createdAt: IsoDate,
  /** Silenced by moderation until then (issue 29): no posting, commenting or reacting; null when not silenced (or the silence ended). */
  silencedUntil: Type.Union([IsoDate, Type.Null()]),
});
export type Profile = Static<typeof Profile>;

/** DELETE /api/me: anonymises the signed-in account; the user must type ELIMINAR. */
export const DeleteAccountInput = Type.Object(
  {
    confirm: Type.String({ maxLength: 100 }),
    /** A hard delete (erasing the posts too) is refused: 'Hard delete must be requested through support'. */
    hard: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type DeleteAccountInput = Static<typeof DeleteAccountInput>;
