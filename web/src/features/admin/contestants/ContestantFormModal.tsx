import { useState, type FormEvent } from 'react';
import type { ContestantView, SeasonView } from '@tribuna/contracts/api/admin/catalog';
import { ADMIN_LIMITS, ADMIN_MESSAGES, CONTESTANT_STATUS_LABELS, CONTESTANT_STATUSES, type ContestantStatus } from '@tribuna/contracts/adminRules';
import { Modal } from '../../../components/Modal';
import { callApi } from '../../../lib/api';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { primaryButton, secondaryButton } from '../../../components/admin/buttons';
import { Field, inputClass } from '../../../components/admin/Field';
import { seasonLabel } from '../../../components/admin/SeasonFilter';
import {
  contestantInput,
  emptyContestant,
  showsEliminationDate,
  showsFinalPosition,
  validateContestant,
  valuesOf,
  type ContestantFormErrors,
  type ContestantFormValues,
} from './contestantForm';
import { PhotoField } from './PhotoField';

interface ContestantFormModalProps {
  /** The contestant to edit; null to create one. */
  contestant: ContestantView | null;
  seasons: readonly SeasonView[];
  /** The season a new contestant starts in (the list's filter), or ''. */
  defaultSeasonId: string;
  onSaved: (contestant: ContestantView, created: boolean) => void;
  onClose: () => void;
}

/** Create or edit a contestant (spec §5 Contestant form). */
export function ContestantFormModal({ contestant, seasons, defaultSeasonId, onSaved, onClose }: ContestantFormModalProps) {
  const [values, setValues] = useState<ContestantFormValues>(() => (contestant ? valuesOf(contestant) : emptyContestant(defaultSeasonId)));
  const [errors, setErrors] = useState<ContestantFormErrors>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);

  const set = <K extends keyof ContestantFormValues>(key: K, value: ContestantFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (key in errors) setErrors((current) => ({ ...current, [key]: undefined }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving || uploading) return;
    const problems = validateContestant(values);
    setErrors(problems);
    if (Object.values(problems).some(Boolean)) return;
    setSaveError(null);
    setSaving(true);
    try {
      const body = contestantInput(values);
      const saved = contestant
        ? await callApi('updateContestant', { params: { contestantId: contestant.id }, body })
        : await callApi('createContestant', { body });
      onSaved(saved, !contestant);
    } catch (failure) {
      console.debug(ADMIN_MESSAGES.saveContestantFailed, failure);
      setSaveError(failure);
      setSaving(false);
    }
  }

  // A season the contestant is in but that is no longer listed (e.g. soft-deleted) still shows.
  const seasonMissing = contestant && !seasons.some((s) => s.id === contestant.seasonId);

  return (
    <Modal title={contestant ? 'Editar concursante' : 'Nuevo concursante'} onClose={onClose}>
      <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label={contestant ? 'Editar concursante' : 'Nuevo concursante'}>
        <Field label="Temporada" required error={errors.seasonId}>
          {(control) => (
            <select {...control} value={values.seasonId} onChange={(event) => set('seasonId', event.target.value)} className={inputClass}>
              <option value="">Selecciona una temporada</option>
              {seasonMissing && contestant && (
                <option value={contestant.seasonId}>{seasonLabel({ realityName: contestant.realityName, number: contestant.seasonNumber })}</option>
              )}
              {seasons.map((season) => (
                <option key={season.id} value={season.id}>
                  {seasonLabel(season)}
                </option>
              ))}
            </select>
          )}
        </Field>

        <Field label="Nombre completo" required error={errors.fullName}>
          {(control) => (
            <input
              {...control}
              type="text"
              autoComplete="off"
              maxLength={ADMIN_LIMITS.contestantName}
              value={values.fullName}
              onChange={(event) => set('fullName', event.target.value)}
              className={inputClass}
            />
          )}
        </Field>

        <PhotoField
          value={values.photoUrl}
          onChange={(url) => set('photoUrl', url)}
          error={errors.photoUrl}
          onUploadingChange={setUploading}
          name={values.fullName.trim()}
        />

        <Field label="Estado">
          {(control) => (
            <select {...control} value={values.status} onChange={(event) => set('status', event.target.value as ContestantStatus)} className={inputClass}>
              {CONTESTANT_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {CONTESTANT_STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          )}
        </Field>

        {showsEliminationDate(values.status) && (
          <Field label="Fecha de eliminación">
            {(control) => (
              <input
                {...control}
                type="date"
                value={values.eliminationDate}
                onChange={(event) => set('eliminationDate', event.target.value)}
                className={inputClass}
              />
            )}
          </Field>
        )}

        {showsFinalPosition(values.status) && (
          <Field label="Posición final" error={errors.finalPosition}>
            {(control) => (
              <input
                {...control}
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                value={values.finalPosition}
                onChange={(event) => set('finalPosition', event.target.value)}
                className={inputClass}
              />
            )}
          </Field>
        )}

        <ErrorBanner error={saveError} fallback={ADMIN_MESSAGES.saveContestantFailed} />

        <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
          <button type="button" onClick={onClose} className={secondaryButton}>
            Cancelar
          </button>
          <button type="submit" disabled={saving || uploading} className={primaryButton}>
            {saving ? 'Guardando…' : contestant ? 'Guardar cambios' : 'Crear concursante'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
