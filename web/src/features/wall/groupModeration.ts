import { createContext, useContext } from 'react';

/**
 * True inside a group's wall whose viewer moderates the group (its admins and moderators, site
 * admins): its posts and comments offer 'Eliminar' to them, and its posts 'Fijar'. The server
 * checks the same again.
 */
export const GroupModeratorContext = createContext(false);

export const useGroupModerator = () => useContext(GroupModeratorContext);
