// Groups as profiles show them (the groups screen itself is a placeholder). Dependency-free.
export const GROUP_PRIVACIES = ['public', 'private'] as const;
export type GroupPrivacy = (typeof GROUP_PRIVACIES)[number];
export const GROUP_ROLES = ['admin', 'moderator', 'member'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

export const GROUP_ROLE_LABELS: Record<GroupRole, string> = { admin: 'Admin', moderator: 'Moderador', member: 'Miembro' };
export const GROUP_PRIVACY_LABELS: Record<GroupPrivacy, string> = { public: 'Público', private: 'Privado' };
