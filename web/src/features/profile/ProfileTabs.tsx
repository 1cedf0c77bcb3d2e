import type { ComponentType } from 'react';
import { Tabs } from '../../components/Tabs';
import { CommentsTab } from './CommentsTab';
import { GroupsTab } from './GroupsTab';
import { VotesTab } from './VotesTab';

export const PROFILE_TABS = [
  { id: 'votaciones', label: 'Votaciones' },
  { id: 'posts', label: 'Posts' },
  { id: 'comentarios', label: 'Comentarios' },
  { id: 'grupos', label: 'Grupos' },
] as const;

export type ProfileTabId = (typeof PROFILE_TABS)[number]['id'];

/** What a tab's panel is given. */
export interface TabPanelProps {
  userId: string;
  own: boolean;
}

interface ProfileTabsProps extends TabPanelProps {
  /** The Posts tab's panel: the wall's feed of this user (another feature's, composed by the app). */
  PostsPanel: ComponentType<TabPanelProps>;
}

/**
 * The profile's tabs (components/Tabs: WAI-ARIA tabs, a panel loaded when first opened and kept
 * mounted afterwards, so coming back to it neither reloads it nor loses its pages).
 */
export function ProfileTabs({ userId, own, PostsPanel }: ProfileTabsProps) {
  const panels: Record<ProfileTabId, ComponentType<TabPanelProps>> = { votaciones: VotesTab, posts: PostsPanel, comentarios: CommentsTab, grupos: GroupsTab };
  const tabs = PROFILE_TABS.map(({ id, label }) => {
    const Panel = panels[id];
    return { id, label, panel: () => <Panel userId={userId} own={own} /> };
  });
  return <Tabs label="Secciones del perfil" tabs={tabs} />;
}
