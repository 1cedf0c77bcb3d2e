import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { MODERATION_LIMITS, MODERATION_MESSAGES, REPORT_REASONS, REPORT_REASON_LABELS, SAFETY_UI, type ReportReason } from '@tribuna/contracts/moderationRules';
import { Alert } from '../../components/Alert';
import { FormField, inputClass } from '../../components/FormField';
import { Modal } from '../../components/Modal';
import { ApiError, errorMessage } from '../../lib/api';
import { useReportStore, type ReportSubject } from '../../lib/reports';
import { useSessionStore } from '../../lib/session/sessionStore';
import { createReport } from './api';

/** Characters as the fan counts them (an emoji is one). */
const textLength = (text: string) => Array.from(text).length;

const secondaryButton =
  'min-h-11 rounded-full px-5 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 disabled:opacity-60 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/10';
const primaryButton = 'min-h-11 rounded-full bg-rose-600 px-5 text-sm font-bold text-white hover:bg-rose-700 disabled:cursor-wait disabled:opacity-70';

interface ReportDialogProps {
  subject: ReportSubject;
  onClose: () => void;
}

/**
 * 'Reportar' a post, a comment or a profile: a reason (radio group), an optional comment (500 at
 * most, with its counter), then 'Gracias, revisaremos tu reporte'. The item is remembered as
 * reported for the session (its menus drop 'Reportar'); the server's 409 says it was already
 * reported and counts the same. A visitor is asked to sign in instead.
 */
export function ReportDialog({ subject, onClose }: ReportDialogProps) {
  const viewerId = useSessionStore((state) => state.user?.id ?? null);
  return (
    <Modal title={SAFETY_UI.report} onClose={onClose}>
      <p className="-mt-1 mb-4 text-sm text-slate-600 dark:text-slate-400">{SAFETY_UI.reportSubject[subject.targetType](subject.name)}</p>
      {viewerId === null ? <SignInToReport onClose={onClose} /> : <ReportForm subject={subject} viewerId={viewerId} onClose={onClose} />}
    </Modal>
  );
}

function SignInToReport({ onClose }: { onClose: () => void }) {
  return (
    <div className="space-y-4">
      <p className="font-semibold">{SAFETY_UI.reportSignIn}</p>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button type="button" onClick={onClose} className={secondaryButton}>
          Cancelar
        </button>
        <Link
          to="/login"
          onClick={onClose}
          className="inline-flex min-h-11 items-center justify-center rounded-full bg-fuchsia-600 px-5 text-sm font-bold text-white hover:bg-fuchsia-700"
        >
          {SAFETY_UI.reportSignInLink}
        </Link>
      </div>
    </div>
  );
}

type Outcome = { kind: 'sent' | 'already'; message: string };

function ReportForm({ subject, viewerId, onClose }: ReportDialogProps & { viewerId: string }) {
  const markReported = useReportStore((state) => state.markReported);
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [comment, setComment] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const baseId = useId();
  const ids = { reasons: `${baseId}-reasons`, reasonError: `${baseId}-reason-error`, comment: `${baseId}-comment` };

  const commentLength = textLength(comment.trim());
  const reasonProblem = submitted && reason === null ? SAFETY_UI.reportReasonRequired : null;
  const commentProblem = commentLength > MODERATION_LIMITS.reportComment ? MODERATION_MESSAGES.reportCommentTooLong : null;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    setSubmitted(true);
    if (reason === null || commentProblem) return;
    setSending(true);
    setError(null);
    const text = comment.trim();
    try {
      const receipt = await createReport({ targetType: subject.targetType, targetId: subject.targetId, reason, ...(text ? { comment: text } : {}) });
      markReported(viewerId, subject);
      setOutcome({ kind: 'sent', message: receipt.message || MODERATION_MESSAGES.reported });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) {
        markReported(viewerId, subject);
        setOutcome({ kind: 'already', message: MODERATION_MESSAGES.alreadyReported });
        return;
      }
      console.debug(MODERATION_MESSAGES.reportFailed, failure);
      setError(errorMessage(failure, MODERATION_MESSAGES.reportFailed));
    } finally {
      setSending(false);
    }
  }

  if (outcome) {
    return (
      <div className="space-y-4">
        <Alert tone="success">{outcome.message}</Alert>
        <div className="flex justify-end">
          <button type="button" onClick={onClose} className={secondaryButton}>
            Listo
          </button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={SAFETY_UI.report}>
      <fieldset className="space-y-2" aria-describedby={reasonProblem ? ids.reasonError : undefined}>
        <legend className="mb-2 text-sm font-semibold">{MODERATION_MESSAGES.reportReasonLabel}</legend>
        {REPORT_REASONS.map((value) => {
          const inputId = `${ids.reasons}-${value}`;
          return (
            <label
              key={value}
              htmlFor={inputId}
              className="flex min-h-11 cursor-pointer items-center gap-3 rounded-2xl px-3 py-2 ring-1 ring-slate-200 has-checked:ring-2 has-checked:ring-fuchsia-500 dark:ring-white/10"
            >
              <input
                id={inputId}
                type="radio"
                name={ids.reasons}
                value={value}
                checked={reason === value}
                onChange={() => setReason(value)}
                disabled={sending}
                className="size-4 shrink-0 accent-fuchsia-600"
              />
              <span className="text-sm font-medium">{REPORT_REASON_LABELS[value]}</span>
            </label>
          );
        })}
        {reasonProblem && (
          <p id={ids.reasonError} className="text-xs font-medium text-rose-600 dark:text-rose-400">
            {reasonProblem}
          </p>
        )}
      </fieldset>

      <FormField
        id={ids.comment}
        label={MODERATION_MESSAGES.reportCommentLabel}
        counter={{ length: commentLength, max: MODERATION_LIMITS.reportComment }}
        error={commentProblem}
      >
        {(describedBy) => (
          <textarea
            id={ids.comment}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            aria-describedby={describedBy}
            aria-invalid={commentProblem ? true : undefined}
            maxLength={MODERATION_LIMITS.reportComment * 2}
            rows={3}
            disabled={sending}
            className={`${inputClass} resize-y`}
          />
        )}
      </FormField>

      {error && <Alert>{error}</Alert>}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button type="button" onClick={onClose} disabled={sending} className={secondaryButton}>
          Cancelar
        </button>
        <button type="submit" disabled={sending} aria-busy={sending || undefined} className={primaryButton}>
          {SAFETY_UI.reportSubmit}
        </button>
      </div>
    </form>
  );
}

/** The dialog for the store's open request (app/ReportHost mounts it, loaded on first use). */
export function ReportDialogHost() {
  const subject = useReportStore((state) => state.subject);
  const close = useReportStore((state) => state.close);
  if (!subject) return null;
  return <ReportDialog key={`${subject.targetType}:${subject.targetId}`} subject={subject} onClose={close} />;
}
