import { useId, useState, type FormEvent } from 'react';
import type { Profile } from '@tribuna/contracts/api/me';
import type { PublicProfile, UpdateProfileInput } from '@tribuna/contracts/api/profiles';
import { PROFILE_LIMITS, PROFILE_MESSAGES, type ProfileImageKind } from '@tribuna/contracts/profileRules';
import { Alert } from '../../components/Alert';
import { FormField as Field, inputClass } from '../../components/FormField';
import { Modal } from '../../components/Modal';
import { errorMessage } from '../../lib/api';
import { displayNameOf } from '../../lib/displayName';
import { useSessionStore } from '../../lib/session/sessionStore';
import { updateProfile } from './api';
import { ImagePicker } from '../../components/ImagePicker';
import { formProblems, textLength, type ProfileForm } from './validation';
import { usePickedImages } from '../../lib/usePickedImages';
import { UploadProgress } from '../../components/UploadProgress';
import { presentableImageUrl } from '@tribuna/contracts/imageUrls';

/** "Mostrar mi nombre en las listas de votantes": as saved, and as chosen in the dialog. */
export interface VoterListsChoice {
  saved: boolean;
  chosen: boolean;
}

/** The fields PATCH /api/me needs: only what changed (texts trimmed; an emptied username or bio clears it). */
export function changedFields(
  profile: PublicProfile,
  form: ProfileForm,
  uploaded: Partial<Record<ProfileImageKind, string>>,
  voterLists?: VoterListsChoice,
): UpdateProfileInput {
  const body: UpdateProfileInput = {};
  const name = form.displayName.trim();
  const username = form.username.trim();
  const bio = form.bio.trim();
  if (name !== (profile.displayName ?? '').trim()) body.displayName = name;
  if (username !== (profile.username ?? '')) body.username = username || null;
  if (bio !== (profile.bio ?? '').trim()) body.bio = bio || null;
  if (uploaded.avatar) body.avatarUrl = uploaded.avatar;
  if (uploaded.banner) body.bannerUrl = uploaded.banner;
  if (voterLists && voterLists.chosen !== voterLists.saved) body.showInVoterLists = voterLists.chosen;
  return body;
}

interface EditProfileDialogProps {
  profile: PublicProfile;
  onClose: () => void;
  /** The saved profile, as PATCH /api/me answered it (the session store already has it). */
  onSaved: (profile: Profile) => void;
}

/**
 * Editar Perfil: banner and avatar pickers (uploaded first, with progress), Nombre, Usuario and
 * Biografía with the spec's checks, and whether the user's name shows in voters lists. Saving sends
 * only what changed, then refreshes the session's profile (the navigation bar's avatar changes at
 * once) and the profile view.
 */
export function EditProfileDialog({ profile, onClose, onSaved }: EditProfileDialogProps) {
  const replaceProfile = useSessionStore((state) => state.replaceProfile);
  // The choice is private: only the own profile (the session's) carries it.
  const savedVoterLists = useSessionStore((state) => state.user?.showInVoterLists ?? true);
  const [showInVoterLists, setShowInVoterLists] = useState(savedVoterLists);
  const [form, setForm] = useState<ProfileForm>({
    displayName: profile.displayName ?? '',
    username: profile.username ?? '',
    bio: profile.bio ?? '',
  });
  const [touched, setTouched] = useState<Partial<Record<keyof ProfileForm, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const { images, errors: imageErrors, progress, pick, upload } = usePickedImages();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const baseId = useId();

  const problems = formProblems(form);
  const shown = (field: keyof ProfileForm) => (submitted || touched[field] ? (problems[field] ?? null) : null);
  const ids = { displayName: `${baseId}-name`, username: `${baseId}-username`, bio: `${baseId}-bio` };
  const voterListsIds = { input: `${baseId}-voter-lists`, hint: `${baseId}-voter-lists-hint` };

  function change(field: keyof ProfileForm, value: string) {
    setForm((current) => ({ ...current, [field]: value }));
    setTouched((current) => ({ ...current, [field]: true }));
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setSubmitted(true);
    const invalid = (Object.keys(ids) as Array<keyof ProfileForm>).find((field) => problems[field]);
    if (invalid) {
      document.getElementById(ids[invalid])?.focus();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const uploaded = await upload();
      const body = changedFields(profile, form, uploaded, { saved: savedVoterLists, chosen: showInVoterLists });
      if (Object.keys(body).length > 0) {
        const saved = await updateProfile(body);
        replaceProfile(saved);
        onSaved(saved);
      }
      onClose();
    } catch (failure) {
      console.debug(PROFILE_MESSAGES.updateFailed, failure);
      setError(errorMessage(failure, PROFILE_MESSAGES.updateFailed));
      setSaving(false);
    }
  }

  const name = form.displayName.trim() || displayNameOf(profile);
  const percent = Math.round((progress ?? 0) * 100);
  return (
    <Modal title="Editar Perfil" onClose={() => (saving ? undefined : onClose())}>
      <form onSubmit={onSubmit} noValidate aria-label="Editar Perfil" className="space-y-5">
        <ImagePicker
          kind="banner"
          src={images.banner?.preview || presentableImageUrl(profile.bannerUrl)}
          name={name}
          disabled={saving}
          error={imageErrors.banner}
          onPick={(file) => pick('banner', file)}
        />
        <ImagePicker
          kind="avatar"
          src={images.avatar?.preview || presentableImageUrl(profile.avatarUrl)}
          name={name}
          disabled={saving}
          error={imageErrors.avatar}
          onPick={(file) => pick('avatar', file)}
        />

        <Field
          id={ids.displayName}
          label="Nombre"
          counter={{ length: textLength(form.displayName), max: PROFILE_LIMITS.displayName }}
          error={shown('displayName')}
        >
          {(describedBy) => (
            <input
              id={ids.displayName}
              type="text"
              value={form.displayName}
              onChange={(e) => change('displayName', e.target.value)}
              aria-describedby={describedBy}
              aria-invalid={shown('displayName') ? true : undefined}
              autoComplete="name"
              disabled={saving}
              className={inputClass}
            />
          )}
        </Field>

        <Field id={ids.username} label="Usuario" hint="3-20 caracteres, solo letras, números y guión bajo" error={shown('username')}>
          {(describedBy) => (
            <div className="relative">
              <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-4 flex items-center text-slate-500 dark:text-slate-400">
                @
              </span>
              <input
                id={ids.username}
                type="text"
                value={form.username}
                onChange={(e) => change('username', e.target.value.toLowerCase())}
                aria-describedby={describedBy}
                aria-invalid={shown('username') ? true : undefined}
                autoCapitalize="none"
                autoCorrect="off"
                autoComplete="username"
                spellCheck={false}
                disabled={saving}
                className={`${inputClass} pl-8`}
              />
            </div>
          )}
        </Field>

        <Field id={ids.bio} label="Biografía" counter={{ length: textLength(form.bio), max: PROFILE_LIMITS.bio }} error={shown('bio')}>
          {(describedBy) => (
            <textarea
              id={ids.bio}
              value={form.bio}
              onChange={(e) => change('bio', e.target.value)}
              aria-describedby={describedBy}
              aria-invalid={shown('bio') ? true : undefined}
              rows={4}
              disabled={saving}
              className={`${inputClass} resize-y`}
            />
          )}
        </Field>

        <div className="flex items-start gap-3">
          <input
            id={voterListsIds.input}
            type="checkbox"
            checked={showInVoterLists}
            onChange={(e) => setShowInVoterLists(e.target.checked)}
            aria-describedby={voterListsIds.hint}
            disabled={saving}
            className="mt-1 size-5 shrink-0 accent-fuchsia-600"
          />
          <div className="space-y-1">
            <label htmlFor={voterListsIds.input} className="text-sm font-semibold">
              Mostrar mi nombre en las listas de votantes
            </label>
            <p id={voterListsIds.hint} className="text-xs text-slate-500 dark:text-slate-400">
              Si lo desactivas, tus votos cuentan igual pero no apareces con tu nombre en la lista de votantes de ninguna encuesta.
            </p>
          </div>
        </div>

        {progress !== null && <UploadProgress label="Subiendo imágenes" percent={percent} />}

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
            {saving ? 'Guardando...' : 'Guardar Cambios'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
