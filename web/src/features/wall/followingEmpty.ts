import { callApi } from '../../lib/api';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useQuery } from '../../lib/useQuery';
import type { EmptyText } from './Feed';

export const FOLLOWS_NOBODY: EmptyText = {
  title: 'Aún no sigues a nadie',
  body: 'Entra al perfil de otros fans y toca «Seguir» para ver aquí lo que publican.',
};
export const FOLLOWED_SILENT: EmptyText = {
  title: 'Las personas que sigues no han publicado',
  body: 'Cuando publiquen algo lo verás aquí.',
};
const UNKNOWN: EmptyText = { title: 'No hay publicaciones', body: '' };

/**
 * The empty 'Siguiendo' wall's text: whether the viewer follows nobody yet, or the people they
 * follow have not posted. Their own profile's 'Siguiendo' count says which; read only when `needed`.
 */
export function useFollowingEmpty(needed: boolean): EmptyText {
  const viewerId = useSessionStore((state) => state.user?.id ?? null);
  const profile = useQuery(['wall-following-count', viewerId], (signal) => callApi('profile', { params: { userId: viewerId! }, signal }), {
    enabled: needed && viewerId !== null,
    onError: (error) => console.debug('No se pudo leer a quién sigues', error),
  });
  if (profile.status !== 'ready') return UNKNOWN;
  return profile.data.followingCount === 0 ? FOLLOWS_NOBODY : FOLLOWED_SILENT;
}
