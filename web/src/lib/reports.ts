import { create } from 'zustand';
import type { ReportTarget } from '@tribuna/contracts/moderationRules';
import { useSessionStore } from './session/sessionStore';

/** What a fan reports: a post, a comment or a profile, and whose it is (named in the dialog). */
export interface ReportSubject {
  targetType: ReportTarget;
  targetId: string;
  /** The author's (or the profile's) display name. */
  name: string;
}

interface ReportState {
  /** The subject of the open report dialog, null while none is open. */
  subject: ReportSubject | null;
  /** What was reported in this session, by `${userId}:${type}:${id}` (another sign-in starts afresh). */
  reported: Record<string, true>;
  open: (subject: ReportSubject) => void;
  close: () => void;
  markReported: (userId: string, subject: Pick<ReportSubject, 'targetType' | 'targetId'>) => void;
}

const keyOf = (userId: string, subject: Pick<ReportSubject, 'targetType' | 'targetId'>) => `${userId}:${subject.targetType}:${subject.targetId}`;

/**
 * The report dialog's request and what the signed-in fan already reported. Posts, comments and
 * profiles ask for the dialog here ('Reportar' in their menus); app/ReportHost shows it (features
 * never import each other), and a reported item drops its 'Reportar'.
 */
export const useReportStore = create<ReportState>()((set) => ({
  subject: null,
  reported: {},
  open: (subject) => set({ subject }),
  close: () => set({ subject: null }),
  markReported: (userId, subject) => set((state) => ({ reported: { ...state.reported, [keyOf(userId, subject)]: true } })),
}));

/** Opens the report dialog (a visitor is asked to sign in there). */
export const openReport = (subject: ReportSubject) => useReportStore.getState().open(subject);

/**
 * Whether the viewer may still be offered 'Reportar' on an item: not on their own, not after they
 * reported it in this session. Visitors are offered it (the dialog asks them to sign in).
 */
export function useCanReport(targetType: ReportTarget, targetId: string, ownerId: string): boolean {
  const viewerId = useSessionStore((state) => state.user?.id ?? null);
  const reported = useReportStore((state) => (viewerId === null ? false : state.reported[keyOf(viewerId, { targetType, targetId })] === true));
  if (viewerId !== null && viewerId.toLowerCase() === ownerId.toLowerCase()) return false;
  return !reported;
}
