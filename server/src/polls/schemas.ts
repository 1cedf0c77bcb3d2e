import { Type, type Static } from '@fastify/type-provider-typebox';
import { Uuid } from '@tribuna/contracts/api/common';

export const PollParams = Type.Object({ pollId: Uuid });
export type PollParams = Static<typeof PollParams>;
