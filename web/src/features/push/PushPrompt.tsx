import { useEffect, useId, useRef, useState } from 'react';
import { PUSH_TEXTS } from '@tribuna/contracts/pushRules';
import { BellIcon } from '../../components/icons';
import { errorMessage } from '../../lib/api';
import { useNavBarVisible } from '../../lib/navVisibility';
import { rememberPushPromptAsked } from '../../lib/pushPrompt';
import { fetchPushConfig } from './api';
import { currentSubscription, enableThisDevice, notificationPermission, pushSupport } from './browserPush';

/** How long '¡Listo! Te avisaremos.' stays before the prompt goes. */
export const PROMPT_DONE_MS = 4000;

type Phase = { name: 'checking' } | { name: 'asking' } | { name: 'busy' } | { name: 'done' } | { name: 'problem'; text: string };

/** Whether to ask on this browser: push works here, nobody refused it, the device is not subscribed yet, the server sends pushes. */
async function worthAsking(): Promise<boolean> {
  if (pushSupport() !== 'supported' || notificationPermission() === 'denied') return false;
  if (await currentSubscription().catch(() => null)) return false;
  return fetchPushConfig().then(
    (config) => config.enabled,
    () => false,
  );
}

const primary =
  'brand-gradient inline-flex min-h-11 flex-1 items-center justify-center rounded-full px-4 text-sm font-bold text-white shadow-md shadow-fuchsia-600/20 transition hover:brightness-110 disabled:opacity-60 sm:flex-none';
const secondary =
  'inline-flex min-h-11 flex-1 items-center justify-center rounded-full px-4 text-sm font-bold text-slate-800 ring-1 ring-slate-300 transition hover:bg-slate-100 sm:flex-none dark:text-slate-100 dark:ring-white/20 dark:hover:bg-white/10';

/**
 * '¿Te avisamos cuando abra la próxima votación?' after a fan's vote, once per device (remembered as
 * soon as it is decided, whatever the answer). The browser's own permission request only comes from
 * 'Sí, avísame'. A non-modal dialog above the tab bar: it takes focus, Escape is 'Ahora no', and
 * focus goes back where it was when it closes.
 */
export function PushPrompt({ onClose }: { onClose: () => void }) {
  const [phase, setPhase] = useState<Phase>({ name: 'checking' });
  const aboveTabBar = useNavBarVisible();
  const titleId = useId();
  const bodyId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    rememberPushPromptAsked();
    void worthAsking().then((ask) => {
      if (cancelled) return;
      if (ask) setPhase({ name: 'asking' });
      else onClose();
    });
    return () => {
      cancelled = true;
    };
  }, [onClose]);

  const showing = phase.name !== 'checking';
  useEffect(() => {
    if (!showing) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialogRef.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, [showing]);

  useEffect(() => {
    if (phase.name !== 'done') return;
    const timer = setTimeout(onClose, PROMPT_DONE_MS);
    return () => clearTimeout(timer);
  }, [phase.name, onClose]);

  async function accept() {
    setPhase({ name: 'busy' });
    try {
      const result = await enableThisDevice();
      if (result.status === 'enabled') setPhase({ name: 'done' });
      else setPhase({ name: 'problem', text: result.status === 'denied' ? PUSH_TEXTS.denied : PUSH_TEXTS.unsupported });
    } catch (failure) {
      console.debug(PUSH_TEXTS.failed, failure);
      setPhase({ name: 'problem', text: errorMessage(failure, PUSH_TEXTS.failed) });
    }
  }

  if (!showing) return null;
  const asking = phase.name === 'asking' || phase.name === 'busy';
  return (
    <div
      ref={dialogRef}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && phase.name !== 'busy') {
          event.stopPropagation();
          onClose();
        }
      }}
      className={`fixed inset-x-3 z-40 rounded-2xl bg-white p-4 shadow-2xl ring-1 ring-black/5 outline-none md:inset-x-auto md:right-6 md:bottom-6 md:w-[26rem] dark:bg-ink-800 dark:ring-white/10 ${
        aboveTabBar ? 'bottom-[calc(5rem+env(safe-area-inset-bottom))]' : 'bottom-[calc(1rem+env(safe-area-inset-bottom))]'
      }`}
    >
      <div className="flex items-start gap-3">
        <span aria-hidden="true" className="brand-gradient grid size-10 shrink-0 place-items-center rounded-xl text-white">
          <BellIcon className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="font-bold">
            {phase.name === 'done' ? PUSH_TEXTS.promptDone : PUSH_TEXTS.promptTitle}
          </h2>
          <p id={bodyId} role={phase.name === 'problem' ? 'alert' : undefined} className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {phase.name === 'problem' ? phase.text : phase.name === 'done' ? null : PUSH_TEXTS.promptBody}
          </p>
        </div>
      </div>
      <div className="mt-3 flex gap-2 sm:justify-end">
        {asking ? (
          <>
            <button type="button" onClick={onClose} disabled={phase.name === 'busy'} className={secondary}>
              {PUSH_TEXTS.promptDismiss}
            </button>
            <button type="button" onClick={() => void accept()} disabled={phase.name === 'busy'} aria-busy={phase.name === 'busy'} className={primary}>
              {phase.name === 'busy' ? PUSH_TEXTS.enabling : PUSH_TEXTS.promptAccept}
            </button>
          </>
        ) : (
          <button type="button" onClick={onClose} className={secondary}>
            Cerrar
          </button>
        )}
      </div>
    </div>
  );
}
