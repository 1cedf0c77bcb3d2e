import { GroupPage } from '../features/groups/GroupPage';
import { GroupWall } from '../features/wall/GroupWall';

/**
 * /grupos/:groupId: the group's page with its wall (the wall's feed, composer and pinned posts).
 * Features never import each other; the router composes them.
 */
export function GroupRoute() {
  return <GroupPage WallPanel={GroupWall} />;
}
