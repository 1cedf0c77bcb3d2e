import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ContestantView, SeasonView } from '@tribuna/contracts/api/admin/catalog';
import type { AdminPollOption, AdminPollView } from '@tribuna/contracts/api/admin/polls';
import { ADMIN_LIMITS, ADMIN_MESSAGES, VOTABLE_CONTESTANT_STATUSES } from '@tribuna/contracts/adminRules';
import { Avatar } from '../../../components/Avatar';
import { Modal } from '../../../components/Modal';
import { callApi } from '../../../lib/api';
import { useQuery } from '../../../lib/useQuery';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { dangerButton, primaryButton, secondaryButton } from '../../../components/admin/buttons';
import { Checkbox } from '../../../components/admin/fields';
import { Field, FieldError, inputClass } from '../../../components/admin/Field';
import { seasonLabel } from '../../../components/admin/SeasonFilter';
import { plural } from '../../../lib/plural';
import {
  blankOption,
  createInput,
  emptyPoll,
  removalWarning,
  removedWithVotes,
  updateInput,
  validatePoll,
  valuesOfPoll,
  type OptionType,
  type PollFormErrors,
  type PollFormValues,
  type VoteMode,
} from './pollForm';

interface PollFormModalProps {
  /** The poll to edit; null to create one. */
  poll: AdminPollView | null;
  seasons: readonly SeasonView[];
  /** The season a new poll starts in (the list's filter), or ''. */
  defaultSeasonId: string;
  onSaved: (poll: AdminPollView, created: boolean) => void;
  onClose: () => void;
}

/** A contestant the form can offer: a votable one of the season, or one already on the poll. */
interface OfferedContestant {
  id: string;
  fullName: string;
  photoUrl: string | null;
}

/** Create or edit a poll (spec §5 Poll form). Editing locks the season, the vote mode and the option type. */
export function PollFormModal({ poll, seasons, defaultSeasonId, onSaved, onClose }: PollFormModalProps) {
  const editing = poll !== null;
  const [values, setValues] = useState<PollFormValues>(() => (poll ? valuesOfPoll(poll) : emptyPoll(defaultSeasonId)));
  const [errors, setErrors] = useState<PollFormErrors>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState<AdminPollOption[] | null>(null);
  const focusOption = useRef<number | null>(null);
  const optionsRef = useRef<HTMLDivElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const lockNoteId = useId();
  const optionsErrorId = useId();

  const wantsContestants = values.optionType === 'contestants' && values.seasonId !== '';
  const contestants = useQuery(
    ['admin-poll-contestants', values.seasonId],
    (signal) => callApi('adminContestants', { signal, query: { seasonId: values.seasonId } }).then((r) => r.contestants),
    { enabled: wantsContestants, onError: (error) => console.debug('No se pudieron cargar los concursantes de la temporada', error) },
  );

  useEffect(() => {
    if (focusOption.current === null) return;
    const inputs = optionsRef.current?.querySelectorAll<HTMLInputElement>('input[type="text"]');
    inputs?.[focusOption.current]?.focus();
    focusOption.current = null;
  }, [values.customOptions.length]);

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  function update(patch: Partial<PollFormValues>, clear: Array<keyof PollFormErrors> = []) {
    setValues((current) => ({ ...current, ...patch }));
    setConfirming(null);
    if (clear.some((key) => errors[key]))
      setErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !clear.includes(key as keyof PollFormErrors))));
  }

  function toggleContestant(id: string, checked: boolean) {
    const ids = checked ? [...values.contestantIds, id] : values.contestantIds.filter((c) => c !== id);
    update({ contestantIds: ids }, ['options']);
  }

  function setOptionText(key: number, text: string) {
    update({ customOptions: values.customOptions.map((o) => (o.key === key ? { ...o, text } : o)) }, ['options']);
  }

  function addOption() {
    focusOption.current = values.customOptions.length;
    update({ customOptions: [...values.customOptions, blankOption()] });
  }

  function removeOption(key: number) {
    if (values.customOptions.length <= ADMIN_LIMITS.minOptions) return;
    const index = values.customOptions.findIndex((o) => o.key === key);
    focusOption.current = Math.max(0, index - 1);
    update({ customOptions: values.customOptions.filter((o) => o.key !== key) });
  }

  function chooseVoteMode(voteMode: VoteMode) {
    // Choosing points mode ticks the daily reset (spec §5).
    update(voteMode === 'points' ? { voteMode, dailyReset: true } : { voteMode }, ['totalPoints']);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const problems = validatePoll(values);
    setErrors(problems);
    if (Object.values(problems).some(Boolean)) return;
    const removed = removedWithVotes(values, poll);
    if (removed.length > 0) {
      setConfirming(removed);
      return;
    }
    void save();
  }

  async function save() {
    setSaveError(null);
    setSaving(true);
    try {
      const saved = poll
        ? await callApi('updatePoll', { params: { pollId: poll.id }, body: updateInput(values, poll) })
        : await callApi('createPoll', { body: createInput(values) });
      onSaved(saved, !poll);
    } catch (failure) {
      console.debug(ADMIN_MESSAGES.savePollFailed, failure);
      setSaveError(failure);
      setConfirming(null);
      setSaving(false);
    }
  }

  // What the contestant list offers: active and eliminated ones of the season, plus any already on the poll.
  const votesOf = new Map((poll?.options ?? []).map((o) => [o.contestantId ?? o.id, o.voteCount]));
  let offered: OfferedContestant[] = [];
  if (contestants.status === 'ready') {
    offered = contestants.data.filter((c: ContestantView) => VOTABLE_CONTESTANT_STATUSES.includes(c.status) || values.contestantIds.includes(c.id));
  }
  if (poll && (contestants.status === 'ready' || contestants.status === 'error')) {
    for (const option of poll.options) {
      if (option.contestantId && !offered.some((c) => c.id === option.contestantId))
        offered.push({ id: option.contestantId, fullName: option.label, photoUrl: option.photoUrl });
    }
  }
  const seasonMissing = poll && !seasons.some((s) => s.id === poll.seasonId);
  const title = editing ? 'Editar encuesta' : 'Nueva encuesta';

  return (
    <Modal title={title} onClose={onClose} size="lg">
      <form noValidate onSubmit={onSubmit} aria-label={title} aria-busy={saving} className="space-y-5">
        <Field label="Título" required error={errors.title}>
          {(control) => (
            <input
              {...control}
              type="text"
              autoComplete="off"
              maxLength={ADMIN_LIMITS.pollTitle}
              value={values.title}
              onChange={(event) => update({ title: event.target.value }, ['title'])}
              className={inputClass}
            />
          )}
        </Field>

        <Field label="Descripción">
          {(control) => (
            <textarea
              {...control}
              rows={2}
              maxLength={ADMIN_LIMITS.pollDescription}
              value={values.description}
              onChange={(event) => update({ description: event.target.value })}
              className={`${inputClass} resize-y`}
            />
          )}
        </Field>

        {editing && (
          <p id={lockNoteId} className="rounded-2xl bg-slate-100 px-4 py-3 text-sm text-slate-600 dark:bg-white/5 dark:text-slate-300">
            {ADMIN_MESSAGES.pollLocked}.
          </p>
        )}

        <Field label="Temporada" required error={errors.seasonId}>
          {(control) => (
            <select
              {...control}
              aria-describedby={[control['aria-describedby'], editing ? lockNoteId : null].filter(Boolean).join(' ') || undefined}
              disabled={editing}
              value={values.seasonId}
              onChange={(event) => update({ seasonId: event.target.value, contestantIds: [] }, ['seasonId', 'options'])}
              className={inputClass}
            >
              <option value="">Selecciona una temporada</option>
              {seasonMissing && poll && <option value={poll.seasonId}>{seasonLabel({ realityName: poll.realityName, number: poll.seasonNumber })}</option>}
              {seasons.map((season) => (
                <option key={season.id} value={season.id}>
                  {seasonLabel(season)}
                </option>
              ))}
            </select>
          )}
        </Field>

        <Choice<OptionType>
          legend="Tipo de opciones"
          value={values.optionType}
          disabled={editing}
          describedBy={editing ? lockNoteId : undefined}
          choices={[
            ['contestants', 'Concursantes'],
            ['custom', 'Opciones personalizadas'],
          ]}
          onChange={(optionType) => update({ optionType }, ['options'])}
        />

        <fieldset className="space-y-2" aria-describedby={errors.options ? optionsErrorId : undefined}>
          <legend className="mb-1 text-sm font-semibold">
            Opciones
            <span aria-hidden="true" className="ml-0.5 text-rose-600 dark:text-rose-400">
              *
            </span>
          </legend>
          {values.optionType === 'contestants' ? (
            !values.seasonId ? (
              <p className="text-sm text-slate-500 dark:text-slate-400">Selecciona una temporada para ver sus concursantes.</p>
            ) : contestants.status === 'loading' || contestants.status === 'idle' ? (
              <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
                Cargando concursantes…
              </p>
            ) : offered.length === 0 ? (
              <p className="rounded-2xl border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600 dark:border-white/15 dark:text-slate-300">
                {ADMIN_MESSAGES.noContestantsAvailable}
              </p>
            ) : (
              <ul className="grid gap-2 sm:grid-cols-2">
                {offered.map((contestant) => {
                  const votes = votesOf.get(contestant.id) ?? 0;
                  return (
                    <li key={contestant.id}>
                      <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-2xl px-3 py-2 ring-1 ring-slate-200 transition hover:bg-slate-50 has-checked:bg-fuchsia-50 has-checked:ring-fuchsia-400 dark:ring-white/10 dark:hover:bg-white/5 dark:has-checked:bg-fuchsia-500/10 dark:has-checked:ring-fuchsia-400/60">
                        <input
                          type="checkbox"
                          checked={values.contestantIds.includes(contestant.id)}
                          onChange={(event) => toggleContestant(contestant.id, event.target.checked)}
                          className="size-5 shrink-0 accent-fuchsia-600"
                        />
                        <Avatar name={contestant.fullName} src={contestant.photoUrl} size="sm" />
                        <span className="min-w-0 flex-1 truncate text-sm font-medium">{contestant.fullName}</span>
                        {votes > 0 && <span className="text-xs text-slate-500 dark:text-slate-400">{plural(votes, 'voto', 'votos')}</span>}
                      </label>
                    </li>
                  );
                })}
              </ul>
            )
          ) : (
            <div ref={optionsRef} className="space-y-2">
              {values.customOptions.map((option, index) => {
                const votes = option.id ? (votesOf.get(option.id) ?? 0) : 0;
                return (
                  <div key={option.key} className="flex items-center gap-2">
                    <input
                      type="text"
                      aria-label={`Opción ${index + 1}`}
                      placeholder={`Opción ${index + 1}`}
                      maxLength={ADMIN_LIMITS.optionText}
                      value={option.text}
                      onChange={(event) => setOptionText(option.key, event.target.value)}
                      aria-invalid={errors.options && !option.text.trim() ? true : undefined}
                      className={inputClass}
                    />
                    {votes > 0 && <span className="shrink-0 text-xs text-slate-500 dark:text-slate-400">{plural(votes, 'voto', 'votos')}</span>}
                    {values.customOptions.length > ADMIN_LIMITS.minOptions && (
                      <button
                        type="button"
                        onClick={() => removeOption(option.key)}
                        aria-label={`Quitar opción ${index + 1}`}
                        className="inline-flex size-10 shrink-0 items-center justify-center rounded-full text-slate-500 transition hover:bg-rose-50 hover:text-rose-700 dark:text-slate-400 dark:hover:bg-rose-500/10 dark:hover:text-rose-300"
                      >
                        <svg
                          viewBox="0 0 24 24"
                          fill="none"
                          stroke="currentColor"
                          strokeWidth={2}
                          strokeLinecap="round"
                          aria-hidden="true"
                          focusable="false"
                          className="size-5"
                        >
                          <path d="M18 6 6 18M6 6l12 12" />
                        </svg>
                      </button>
                    )}
                  </div>
                );
              })}
              {values.customOptions.length < ADMIN_LIMITS.maxOptions && (
                <button type="button" onClick={addOption} className={secondaryButton}>
                  Agregar opción
                </button>
              )}
            </div>
          )}
          {errors.options && <FieldError id={optionsErrorId}>{errors.options}</FieldError>}
        </fieldset>

        <div className="space-y-3">
          <Checkbox
            label="Cuenta regresiva"
            checked={values.countdown}
            // Switching the countdown off clears the closing date (spec §5).
            onChange={(countdown) => update(countdown ? { countdown } : { countdown, endDate: '', endTime: '' }, ['endDate'])}
          />
          {values.countdown && (
            <div className="grid gap-3 sm:grid-cols-2">
              <Field label="Fecha de cierre" required error={errors.endDate}>
                {(control) => (
                  <input
                    {...control}
                    type="date"
                    value={values.endDate}
                    onChange={(event) => update({ endDate: event.target.value }, ['endDate'])}
                    className={inputClass}
                  />
                )}
              </Field>
              <Field label="Hora de cierre" required>
                {(control) => (
                  <input
                    {...control}
                    aria-invalid={errors.endDate && !values.endTime ? true : undefined}
                    type="time"
                    value={values.endTime}
                    onChange={(event) => update({ endTime: event.target.value }, ['endDate'])}
                    className={inputClass}
                  />
                )}
              </Field>
            </div>
          )}
        </div>

        <Choice<VoteMode>
          legend="Modo de voto"
          value={values.voteMode}
          disabled={editing}
          describedBy={editing ? lockNoteId : undefined}
          choices={[
            ['single', 'Voto único'],
            ['points', 'Por puntos'],
          ]}
          onChange={chooseVoteMode}
        />
        {values.voteMode === 'points' && (
          <div className="grid gap-3 sm:grid-cols-2 sm:items-start">
            <Field label="Total de puntos" required error={errors.totalPoints} hint="Puntos que cada usuario reparte entre las opciones.">
              {(control) => (
                <input
                  {...control}
                  type="number"
                  inputMode="numeric"
                  min={ADMIN_LIMITS.minTotalPoints}
                  max={ADMIN_LIMITS.maxTotalPoints}
                  step={1}
                  value={values.totalPoints}
                  onChange={(event) => update({ totalPoints: event.target.value }, ['totalPoints'])}
                  className={inputClass}
                />
              )}
            </Field>
            <div className="sm:pt-7">
              <Checkbox
                label="Reinicio diario"
                checked={values.dailyReset}
                onChange={(dailyReset) => update({ dailyReset })}
                note={<span className="text-slate-500 dark:text-slate-400">Los puntos se reinician cada día a las 00:00.</span>}
              />
            </div>
          </div>
        )}

        {!editing && (
          <Choice<'active' | 'draft'>
            legend="Estado"
            value={values.status}
            choices={[
              ['active', 'Activa'],
              ['draft', 'Borrador'],
            ]}
            onChange={(status) => update({ status })}
          />
        )}

        <ErrorBanner error={saveError} fallback={ADMIN_MESSAGES.savePollFailed} />

        {confirming ? (
          <div
            role="alert"
            className="space-y-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-100"
          >
            <p className="font-semibold">{removalWarning(confirming)}</p>
            <ul className="list-disc space-y-0.5 pl-5">
              {confirming.map((option) => (
                <li key={option.id}>
                  {option.label}: {plural(option.voteCount, 'voto', 'votos')}
                </li>
              ))}
            </ul>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <button type="button" onClick={() => setConfirming(null)} className={secondaryButton}>
                Volver
              </button>
              <button ref={confirmRef} type="button" onClick={() => void save()} disabled={saving} className={dangerButton}>
                {saving ? 'Guardando…' : 'Quitar y guardar'}
              </button>
            </div>
          </div>
        ) : (
          <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
            <button type="button" onClick={onClose} className={secondaryButton}>
              Cancelar
            </button>
            <button type="submit" disabled={saving} className={primaryButton}>
              {saving ? 'Guardando…' : editing ? 'Guardar cambios' : 'Crear encuesta'}
            </button>
          </div>
        )}
      </form>
    </Modal>
  );
}

interface ChoiceProps<T extends string> {
  legend: string;
  value: T;
  choices: ReadonlyArray<readonly [T, ReactNode]>;
  onChange: (value: T) => void;
  disabled?: boolean;
  describedBy?: string;
}

/** A row of radio buttons styled as a segmented control (arrow keys move between them). */
function Choice<T extends string>({ legend, value, choices, onChange, disabled = false, describedBy }: ChoiceProps<T>) {
  const name = useId();
  return (
    <fieldset disabled={disabled} aria-describedby={describedBy} className="space-y-1.5">
      <legend className="mb-1.5 text-sm font-semibold">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {choices.map(([choice, label]) => (
          <label
            key={choice}
            className="relative inline-flex min-h-10 cursor-pointer items-center gap-2 rounded-full px-4 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 transition has-checked:bg-fuchsia-600 has-checked:text-white has-checked:ring-fuchsia-600 has-disabled:cursor-not-allowed has-disabled:opacity-60 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-fuchsia-500 dark:text-slate-200 dark:ring-white/15"
          >
            <input
              type="radio"
              name={name}
              value={choice}
              checked={value === choice}
              disabled={disabled}
              onChange={() => onChange(choice)}
              className="sr-only"
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
