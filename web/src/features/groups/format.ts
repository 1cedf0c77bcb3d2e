import { plural } from '../../lib/plural';

/** '1 miembro', '1,234 miembros'. */
export const memberCountText = (count: number) => plural(count, 'miembro', 'miembros');
