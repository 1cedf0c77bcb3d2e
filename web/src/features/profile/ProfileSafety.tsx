import { useState, type ReactNode } from 'react';
import type { PublicProfile } from '@tribuna/contracts/api/profiles';
import { MODERATION_MESSAGES, SAFETY_UI } from '@tribuna/contracts/moderationRules';
import { Alert } from '../../components/Alert';
import type { ActionMenuItem } from '../../components/ActionMenu';
import { Modal } from '../../components/Modal';
import { errorMessage } from '../../lib/api';
import { openReport, useCanReport } from '../../lib/reports';
import { setBlocked, setMuted } from './api';

/** What muting or blocking changed on the profile shown (the follow ends with a block). */
export type SafetyPatch = Partial<Pick<PublicProfile, 'viewerMuted' | 'viewerBlocked' | 'viewerFollows' | 'followersCount'>>;

export interface ProfileSafety {
  /** The profile menu's items: Reportar, Silenciar / Dejar de silenciar, Bloquear / Desbloquear. */
  items: ActionMenuItem[];
  /** The block confirmation, while open. */
  dialog: ReactNode;
  /** What the viewer's relation is ('Bloqueaste a esta persona'…) or what just failed. */
  notice: ReactNode;
}

/**
 * Another fan's profile: 'Reportar' (visitors too: the dialog asks them to sign in), and for the
 * signed-in 'Silenciar' (at once) and 'Bloquear' (after a confirmation that says it works both ways
 * and ends the follows), each undone from the same menu. A choice while a change runs is ignored.
 */
export function useProfileSafety(profile: PublicProfile, name: string, signedIn: boolean, onChange: (patch: SafetyPatch) => void): ProfileSafety {
  const canReport = useCanReport('profile', profile.id, profile.id);
  const [confirmingBlock, setConfirmingBlock] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The undo just done ('Ya no silencias a esta persona'), told until the next change.
  const [undone, setUndone] = useState<string | null>(null);

  async function change(run: () => Promise<void>, undoneText: string | null): Promise<boolean> {
    if (pending) return false;
    setPending(true);
    setError(null);
    setUndone(null);
    try {
      await run();
      setUndone(undoneText);
      return true;
    } catch (failure) {
      console.debug(SAFETY_UI.changeFailed, failure);
      setError(errorMessage(failure, SAFETY_UI.changeFailed));
      return false;
    } finally {
      setPending(false);
    }
  }

  const toggleMute = () => {
    const mute = !profile.viewerMuted;
    void change(
      async () => {
        const state = await setMuted(profile.id, mute);
        onChange({ viewerMuted: state.muted });
      },
      mute ? null : SAFETY_UI.unmuted,
    );
  };

  const unblock = () => {
    void change(async () => {
      const state = await setBlocked(profile.id, false);
      onChange({ viewerBlocked: state.blocked, viewerMuted: state.muted });
    }, SAFETY_UI.unblocked);
  };

  async function block() {
    const followed = profile.viewerFollows;
    const done = await change(async () => {
      const state = await setBlocked(profile.id, true);
      onChange({
        viewerBlocked: state.blocked,
        viewerMuted: state.muted,
        viewerFollows: false,
        ...(followed ? { followersCount: Math.max(0, profile.followersCount - 1) } : {}),
      });
    }, null);
    if (done) setConfirmingBlock(false);
  }

  const items: ActionMenuItem[] = [];
  if (canReport) items.push({ label: SAFETY_UI.report, onSelect: () => openReport({ targetType: 'profile', targetId: profile.id, name }) });
  if (signedIn) {
    items.push({ label: profile.viewerMuted ? SAFETY_UI.unmute : SAFETY_UI.mute, onSelect: toggleMute });
    items.push(
      profile.viewerBlocked
        ? { label: SAFETY_UI.unblock, onSelect: unblock }
        : {
            label: SAFETY_UI.block,
            tone: 'danger',
            onSelect: () => {
              setError(null);
              setConfirmingBlock(true);
            },
          },
    );
  }

  const relation = profile.viewerBlocked ? MODERATION_MESSAGES.blocked : profile.viewerMuted ? MODERATION_MESSAGES.muted : undone;
  const notice = (
    <>
      {/* Always rendered: a polite live region announces what a change did. */}
      <p role="status" className={relation ? 'mt-3 text-sm font-semibold text-slate-600 dark:text-slate-300' : 'sr-only'}>
        {relation}
      </p>
      {error && !confirmingBlock && (
        <p role="alert" className="mt-2 text-sm font-medium text-rose-600 dark:text-rose-400">
          {error}
        </p>
      )}
    </>
  );

  const dialog = confirmingBlock && (
    <Modal title={SAFETY_UI.blockTitle(name)} onClose={() => setConfirmingBlock(false)}>
      <div className="space-y-3 text-sm text-slate-600 dark:text-slate-300">
        <p>{SAFETY_UI.blockBothWays}</p>
        <p>{SAFETY_UI.blockEndsFollows}</p>
        <p>{SAFETY_UI.blockReversible}</p>
      </div>
      {error && <Alert className="mt-4">{error}</Alert>}
      <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button
          type="button"
          onClick={() => setConfirmingBlock(false)}
          className="min-h-11 rounded-full px-5 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/10"
        >
          Cancelar
        </button>
        <button
          type="button"
          onClick={() => void block()}
          disabled={pending}
          aria-busy={pending || undefined}
          className="min-h-11 rounded-full bg-rose-600 px-5 text-sm font-bold text-white hover:bg-rose-700 disabled:cursor-wait disabled:opacity-70"
        >
          {SAFETY_UI.block}
        </button>
      </div>
    </Modal>
  );

  return { items, dialog, notice };
}
