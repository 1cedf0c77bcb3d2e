import { useId, useRef, useState, type FormEvent } from 'react';
import type { ModerationActionResult, ModerationItem } from '@tribuna/contracts/api/moderation';
import {
  MODERATION_ACTION_LABELS,
  MODERATION_LIMITS,
  MODERATION_MESSAGES,
  MODERATION_QUEUE_TEXTS,
  SILENCE_DURATIONS,
  SILENCE_DURATION_LABELS,
  type ModerationAction,
  type SilenceDuration,
} from '@tribuna/contracts/moderationRules';
import { Modal } from '../../../components/Modal';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { inputClass } from '../../../components/admin/Field';
import { dangerButton, primaryButton, secondaryButton } from '../../../components/admin/buttons';
import { callApi } from '../../../lib/api';
import { DANGEROUS_ACTIONS, itemName } from './moderationItem';

interface ActionDialogProps {
  item: ModerationItem;
  action: ModerationAction;
  /** The server's answer, once the action was applied. */
  onDone: (result: ModerationActionResult) => void;
  onCancel: () => void;
}

/** Characters as a person counts them (an emoji is one). */
const length = (text: string) => [...text].length;

/**
 * The confirmation of one moderation action: what it does, for 'Silenciar al autor' how long
 * (1 hora / 24 horas / 7 días), an optional reason (kept in the audit log, at most 500 characters),
 * then POST /api/moderation/actions. A refusal shows the server's message and keeps the dialog open.
 */
export function ActionDialog({ item, action, onDone, onCancel }: ActionDialogProps) {
  const [reason, setReason] = useState('');
  const [silenceFor, setSilenceFor] = useState<SilenceDuration | null>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [durationError, setDurationError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const durationRef = useRef<HTMLInputElement>(null);
  const reasonId = useId();
  const durationName = useId();
  const label = MODERATION_ACTION_LABELS[action];
  const tooLong = length(reason) > MODERATION_LIMITS.actionReason;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const missingDuration = action === 'silence' && silenceFor === null;
    setDurationError(missingDuration ? MODERATION_MESSAGES.silenceForRequired : null);
    setReasonError(tooLong ? MODERATION_QUEUE_TEXTS.reasonTooLong : null);
    if (missingDuration) return durationRef.current?.focus();
    if (tooLong) return reasonRef.current?.focus();
    const text = reason.trim();
    setBusy(true);
    setError(null);
    try {
      const result = await callApi('moderate', {
        body: {
          targetType: item.targetType,
          targetId: item.targetId,
          action,
          ...(text ? { reason: text } : {}),
          ...(action === 'silence' && silenceFor ? { silenceFor } : {}),
        },
      });
      onDone(result);
    } catch (failure) {
      console.debug(MODERATION_QUEUE_TEXTS.actionFailed, failure);
      setError(failure);
      setBusy(false);
    }
  }

  const counterId = `${reasonId}-count`;
  const reasonErrorId = `${reasonId}-error`;
  return (
    <Modal title={`${label}: ${itemName(item)}`} onClose={onCancel}>
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-busy={busy}>
        <p className="text-sm text-slate-600 dark:text-slate-300">{MODERATION_QUEUE_TEXTS.confirm[action]}</p>

        {action === 'silence' && (
          <fieldset aria-describedby={durationError ? `${durationName}-error` : undefined} className="space-y-2">
            <legend className="text-sm font-semibold">{MODERATION_QUEUE_TEXTS.silenceForLabel}</legend>
            <div className="flex flex-wrap gap-2">
              {SILENCE_DURATIONS.map((duration, index) => (
                <label
                  key={duration}
                  className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-full px-4 py-2 text-sm font-semibold ring-1 ring-slate-300 has-checked:bg-fuchsia-50 has-checked:text-fuchsia-800 has-checked:ring-fuchsia-500 dark:ring-white/15 dark:has-checked:bg-fuchsia-400/15 dark:has-checked:text-fuchsia-200"
                >
                  <input
                    ref={index === 0 ? durationRef : undefined}
                    type="radio"
                    name={durationName}
                    value={duration}
                    checked={silenceFor === duration}
                    aria-invalid={durationError ? true : undefined}
                    onChange={() => {
                      setSilenceFor(duration);
                      setDurationError(null);
                    }}
                    className="size-4 accent-fuchsia-600"
                  />
                  {SILENCE_DURATION_LABELS[duration]}
                </label>
              ))}
            </div>
            {durationError && (
              <p id={`${durationName}-error`} role="alert" className="text-sm font-medium text-rose-700 dark:text-rose-300">
                {durationError}
              </p>
            )}
          </fieldset>
        )}

        <div className="space-y-1.5">
          <label htmlFor={reasonId} className="block text-sm font-semibold">
            {MODERATION_QUEUE_TEXTS.reasonLabel}
          </label>
          <textarea
            ref={reasonRef}
            id={reasonId}
            rows={3}
            value={reason}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={[counterId, reasonError ? reasonErrorId : null].filter(Boolean).join(' ')}
            onChange={(event) => {
              setReason(event.target.value);
              setReasonError(null);
            }}
            className={`${inputClass} resize-y`}
          />
          <p id={counterId} className={`text-xs ${tooLong ? 'font-semibold text-rose-700 dark:text-rose-300' : 'text-slate-600 dark:text-slate-400'}`}>
            {MODERATION_QUEUE_TEXTS.reasonHint} {length(reason)}/{MODERATION_LIMITS.actionReason}
          </p>
          {reasonError && (
            <p id={reasonErrorId} role="alert" className="text-sm font-medium text-rose-700 dark:text-rose-300">
              {reasonError}
            </p>
          )}
        </div>

        <ErrorBanner error={error} fallback={MODERATION_QUEUE_TEXTS.actionFailed} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" onClick={onCancel} className={secondaryButton}>
            Cancelar
          </button>
          <button type="submit" disabled={busy} className={DANGEROUS_ACTIONS.includes(action) ? dangerButton : primaryButton}>
            {busy ? MODERATION_QUEUE_TEXTS.busy[action] : label}
          </button>
        </div>
      </form>
    </Modal>
  );
}
