import { Type, type Static } from '@fastify/type-provider-typebox';
import { Uuid } from '@tribuna/contracts/api/common';

export const VotePollParams = Type.Object({ pollId: Uuid });
export type VotePollParams = Static<typeof VotePollParams>;
