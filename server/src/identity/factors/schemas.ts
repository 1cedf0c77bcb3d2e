import { Type } from '@fastify/type-provider-typebox';
import { Uuid } from '@tribuna/contracts/api/common';

export const FactorParams = Type.Object({ id: Uuid });
