import { create } from 'zustand';

/** localStorage: the fan was asked '¿Te avisamos…?' on this device (asked once, whatever the answer). */
export const PUSH_PROMPT_ASKED_KEY = 'tribuna-push-prompted';

interface PushPromptState {
  /** A vote succeeded and this device was never asked: app/PushPromptHost shows the push feature's prompt. */
  offered: boolean;
  close: () => void;
}

export const usePushPromptStore = create<PushPromptState>()((set) => ({
  offered: false,
  close: () => set({ offered: false }),
}));

export function wasPushPromptAsked(): boolean {
  try {
    return localStorage.getItem(PUSH_PROMPT_ASKED_KEY) === '1';
  } catch {
    return true; // Without storage, never risk asking on every vote.
  }
}

export function rememberPushPromptAsked(): void {
  try {
    localStorage.setItem(PUSH_PROMPT_ASKED_KEY, '1');
  } catch {
    // Nothing to remember it in; wasPushPromptAsked says yes anyway.
  }
}

/**
 * Called when a vote succeeds (features/polls): offers web push once per device. The prompt itself
 * (features/push, through app/PushPromptHost) decides whether this browser can and should be asked.
 */
export function offerPushAfterVote(): void {
  if (!wasPushPromptAsked()) usePushPromptStore.setState({ offered: true });
}
