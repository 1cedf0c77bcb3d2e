import { useId, useState, type FormEvent } from 'react';
import type { GroupDetail, UpdateGroupInput } from '@tribuna/contracts/api/groups';
import { GROUP_LIMITS, GROUP_PRIVACY_LABELS, GROUP_PRIVACIES, type GroupPrivacy } from '@tribuna/contracts/groupRules';
import { presentableImageUrl } from '@tribuna/contracts/imageUrls';
import { Alert } from '../../components/Alert';
import { FormField, inputClass } from '../../components/FormField';
import { ImagePicker, type ImagePickerTexts } from '../../components/ImagePicker';
import { Modal } from '../../components/Modal';
import { UploadProgress } from '../../components/UploadProgress';
import { errorMessage } from '../../lib/api';
import { usePickedImages } from '../../lib/usePickedImages';
import { createGroup, updateGroup } from './api';
import { groupFormProblems, textLength, type GroupForm } from './validation';

const PRIVACY_HINTS: Record<GroupPrivacy, string> = {
  public: 'Cualquiera puede ver y unirse',
  private: 'Solo los miembros ven las publicaciones; hay que solicitar unirse',
};

const COVER_TEXTS: ImagePickerTexts = { label: 'Portada', hint: '1500x500px, máx. 5MB', button: 'Cambiar portada' };
const AVATAR_TEXTS: ImagePickerTexts = { label: 'Foto del grupo', hint: '400x400px, máx. 5MB', button: 'Cambiar foto' };

/** What PATCH sends: only what changed (texts trimmed; an emptied description clears it). */
export function changedGroupFields(group: GroupDetail, form: GroupForm, uploaded: { avatar?: string; banner?: string }): UpdateGroupInput {
  const body: UpdateGroupInput = {};
  const name = form.name.trim();
  const description = form.description.trim();
  if (name !== group.name) body.name = name;
  if (description !== (group.description ?? '')) body.description = description || null;
  if (form.privacy !== group.privacy) body.privacy = form.privacy;
  if (uploaded.avatar) body.avatarUrl = uploaded.avatar;
  if (uploaded.banner) body.coverUrl = uploaded.banner;
  return body;
}

interface GroupFormDialogProps {
  /** The group to edit; none: 'Crear grupo'. */
  group?: GroupDetail;
  onClose: () => void;
  /** The group as the server answered the create or the edit. */
  onSaved: (group: GroupDetail) => void;
}

/**
 * 'Crear grupo' and 'Editar grupo': cover and avatar (uploaded first, with progress), name (3–50),
 * description (≤ 500, counter) and privacy, checked here with the server's messages; the server's
 * own refusal (the daily limit…) shows in the dialog.
 */
export function GroupFormDialog({ group, onClose, onSaved }: GroupFormDialogProps) {
  const [form, setForm] = useState<GroupForm>({ name: group?.name ?? '', description: group?.description ?? '', privacy: group?.privacy ?? 'public' });
  const [touched, setTouched] = useState<Partial<Record<keyof GroupForm, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const { images, errors: imageErrors, progress, pick, upload } = usePickedImages();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const baseId = useId();
  const ids = { name: `${baseId}-name`, description: `${baseId}-description` };
  const title = group ? 'Editar grupo' : 'Crear grupo';

  const problems = groupFormProblems(form);
  const shown = (field: 'name' | 'description') => (submitted || touched[field] ? (problems[field] ?? null) : null);

  function change<K extends keyof GroupForm>(field: K, value: GroupForm[K]) {
    setForm((current) => ({ ...current, [field]: value }));
    setTouched((current) => ({ ...current, [field]: true }));
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setSubmitted(true);
    const invalid = (['name', 'description'] as const).find((field) => problems[field]);
    if (invalid) {
      document.getElementById(ids[invalid])?.focus();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const uploaded = await upload();
      let saved: GroupDetail;
      if (group) {
        const body = changedGroupFields(group, form, uploaded);
        saved = Object.keys(body).length > 0 ? await updateGroup(group.id, body) : group;
      } else {
        const description = form.description.trim();
        saved = await createGroup({
          name: form.name.trim(),
          description: description || null,
          privacy: form.privacy,
          avatarUrl: uploaded.avatar ?? null,
          coverUrl: uploaded.banner ?? null,
        });
      }
      onSaved(saved);
      onClose();
    } catch (failure) {
      const fallback = group ? 'No se pudo guardar el grupo' : 'No se pudo crear el grupo';
      console.debug(fallback, failure);
      setError(errorMessage(failure, fallback));
      setSaving(false);
    }
  }

  const name = form.name.trim() || 'Grupo';
  return (
    <Modal title={title} onClose={() => (saving ? undefined : onClose())}>
      <form onSubmit={onSubmit} noValidate aria-label={title} className="space-y-5">
        <ImagePicker
          kind="banner"
          texts={COVER_TEXTS}
          src={images.banner?.preview || presentableImageUrl(group?.coverUrl ?? null)}
          name={name}
          disabled={saving}
          error={imageErrors.banner}
          onPick={(file) => pick('banner', file)}
        />
        <ImagePicker
          kind="avatar"
          texts={AVATAR_TEXTS}
          src={images.avatar?.preview || presentableImageUrl(group?.avatarUrl ?? null)}
          name={name}
          disabled={saving}
          error={imageErrors.avatar}
          onPick={(file) => pick('avatar', file)}
        />

        <FormField id={ids.name} label="Nombre" counter={{ length: textLength(form.name.trim()), max: GROUP_LIMITS.nameMax }} error={shown('name')}>
          {(describedBy) => (
            <input
              id={ids.name}
              type="text"
              value={form.name}
              onChange={(e) => change('name', e.target.value)}
              aria-describedby={describedBy}
              aria-invalid={shown('name') ? true : undefined}
              autoComplete="off"
              disabled={saving}
              className={inputClass}
            />
          )}
        </FormField>

        <FormField
          id={ids.description}
          label="Descripción"
          counter={{ length: textLength(form.description.trim()), max: GROUP_LIMITS.description }}
          error={shown('description')}
        >
          {(describedBy) => (
            <textarea
              id={ids.description}
              value={form.description}
              onChange={(e) => change('description', e.target.value)}
              aria-describedby={describedBy}
              aria-invalid={shown('description') ? true : undefined}
              rows={4}
              disabled={saving}
              className={`${inputClass} resize-y`}
            />
          )}
        </FormField>

        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold">Privacidad</legend>
          {GROUP_PRIVACIES.map((privacy) => {
            const inputId = `${baseId}-privacy-${privacy}`;
            return (
              <div
                key={privacy}
                className="flex items-start gap-3 rounded-2xl p-3 ring-1 ring-slate-200 has-checked:ring-2 has-checked:ring-fuchsia-500 dark:ring-white/10"
              >
                <input
                  id={inputId}
                  type="radio"
                  name={`${baseId}-privacy`}
                  value={privacy}
                  checked={form.privacy === privacy}
                  onChange={() => change('privacy', privacy)}
                  aria-describedby={`${inputId}-hint`}
                  disabled={saving}
                  className="mt-1 size-4 shrink-0 accent-fuchsia-600"
                />
                <div>
                  <label htmlFor={inputId} className="text-sm font-semibold">
                    {GROUP_PRIVACY_LABELS[privacy]}
                  </label>
                  <p id={`${inputId}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
                    {PRIVACY_HINTS[privacy]}
                  </p>
                </div>
              </div>
            );
          })}
        </fieldset>

        {progress !== null && <UploadProgress label="Subiendo imágenes" percent={Math.round(progress * 100)} />}

        {error && <Alert>{error}</Alert>}

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={onClose}
            disabled={saving}
            className="min-h-11 rounded-full px-5 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 disabled:opacity-60 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/10"
          >
            Cancelar
          </button>
          <button
            type="submit"
            disabled={saving}
            className="brand-gradient min-h-11 rounded-full px-5 text-sm font-bold text-white shadow-lg shadow-fuchsia-600/25 hover:opacity-90 disabled:cursor-wait disabled:opacity-70"
          >
            {saving ? 'Guardando...' : group ? 'Guardar cambios' : 'Crear grupo'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
