import { lazy, Suspense } from 'react';
import { usePushPromptStore } from '../lib/pushPrompt';

// The push prompt is its own chunk, fetched only when a vote offers it (once per device).
const PushPrompt = lazy(() => import('../features/push/PushPrompt').then((m) => ({ default: m.PushPrompt })));

/**
 * '¿Te avisamos cuando abra la próxima votación?' after a fan's first vote: the polls feature offers
 * it through lib/pushPrompt (features never import each other), and the shell shows it here.
 */
export function PushPromptHost() {
  const offered = usePushPromptStore((state) => state.offered);
  const close = usePushPromptStore((state) => state.close);
  if (!offered) return null;
  return (
    <Suspense fallback={null}>
      <PushPrompt onClose={close} />
    </Suspense>
  );
}
