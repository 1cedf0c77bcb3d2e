import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Alert } from '../../../components/Alert';
import { errorMessage } from '../../../lib/api';
import { secondaryButton } from '../../../components/admin/buttons';
import { FieldError, inputClass } from '../../../components/admin/Field';
import { isUploadedPhotoUrl } from './contestantForm';
import { PHOTO_MESSAGES, PHOTO_TYPES, placeholderUrl, uploadContestantPhoto, validatePhotoFile } from './photoUpload';
import { UploadProgress } from '../../../components/UploadProgress';
import { useLatest } from '../../../lib/useLatest';

type Mode = 'upload' | 'url';

interface PhotoFieldProps {
  /** The photo's URL: an uploaded one (/media/…), an https URL, or ''. */
  value: string;
  onChange: (url: string) => void;
  /** The URL's validation message (from the form). */
  error?: string | null;
  /** Told when an upload starts and ends (the form waits for it before saving). */
  onUploadingChange: (uploading: boolean) => void;
  name: string;
}

const objectUrl = (file: File) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '');
const revoke = (url: string | null) => {
  if (url && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
};

/**
 * The contestant's photo: uploaded through the media pipeline (the server crops it square; the
 * preview shows the same square crop, with a progress bar and the blurred placeholder) or given
 * as an https URL.
 */
export function PhotoField({ value, onChange, error, onUploadingChange, name }: PhotoFieldProps) {
  const [mode, setMode] = useState<Mode>(() => (value && !isUploadedPhotoUrl(value) ? 'url' : 'upload'));
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [placeholder, setPlaceholder] = useState<string | null>(null);
  const saved = useRef<Record<Mode, string>>({ upload: '', url: '' });
  const fileRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const previewRef = useLatest(preview);
  const onUploadingRef = useLatest(onUploadingChange);
  const groupId = useId();
  const urlId = useId();
  const urlErrorId = useId();
  const hintId = useId();
  const uploading = progress !== null;

  useEffect(
    () => () => {
      abortRef.current?.abort();
      revoke(previewRef.current);
    },
    [previewRef],
  );

  function switchMode(next: Mode) {
    if (next === mode || uploading) return;
    saved.current[mode] = value;
    setMode(next);
    setUploadError(null);
    onChange(saved.current[next]);
  }

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = validatePhotoFile(file);
    if (problem) {
      setUploadError(problem);
      return;
    }
    setUploadError(null);
    revoke(previewRef.current);
    setPreview(objectUrl(file) || null);
    setPlaceholder(null);
    setProgress(0);
    onUploadingRef.current(true);
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const photo = await uploadContestantPhoto(file, { onProgress: setProgress, signal: controller.signal });
      setPlaceholder(placeholderUrl(photo.placeholder));
      onChange(photo.url);
    } catch (failure) {
      if (failure instanceof DOMException && failure.name === 'AbortError') return;
      console.debug(PHOTO_MESSAGES.uploadFailed, failure);
      setUploadError(errorMessage(failure, PHOTO_MESSAGES.uploadFailed));
      revoke(previewRef.current);
      setPreview(null);
    } finally {
      if (!controller.signal.aborted) {
        setProgress(null);
        onUploadingRef.current(false);
      }
    }
  }

  function removePhoto() {
    revoke(preview);
    setPreview(null);
    setPlaceholder(null);
    onChange('');
  }

  const shown = uploading ? preview : value ? value : null;
  const percent = Math.round((progress ?? 0) * 100);

  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold">Foto</legend>
      <div role="radiogroup" aria-label="Origen de la foto" className="inline-flex rounded-full bg-slate-100 p-1 dark:bg-white/5">
        {(
          [
            ['upload', 'Subir archivo'],
            ['url', 'Usar URL'],
          ] as const
        ).map(([option, label]) => (
          <label
            key={option}
            className="relative cursor-pointer rounded-full px-3 py-1.5 text-sm font-semibold text-slate-600 has-checked:bg-white has-checked:text-fuchsia-700 has-checked:shadow-sm has-focus-visible:outline-2 has-focus-visible:outline-fuchsia-500 dark:text-slate-300 dark:has-checked:bg-ink-800 dark:has-checked:text-fuchsia-300"
          >
            <input
              type="radio"
              name={`${groupId}-mode`}
              value={option}
              checked={mode === option}
              onChange={() => switchMode(option)}
              disabled={uploading}
              className="sr-only"
            />
            {label}
          </label>
        ))}
      </div>

      {mode === 'upload' ? (
        <div className="flex items-start gap-4">
          <div
            className="relative size-28 shrink-0 overflow-hidden rounded-2xl bg-slate-200 bg-cover bg-center ring-1 ring-slate-300 dark:bg-white/10 dark:ring-white/15"
            style={placeholder ? { backgroundImage: `url(${placeholder})` } : undefined}
          >
            {shown ? (
              <img src={shown} alt={`Vista previa de la foto de ${name || 'el concursante'}`} className="size-full object-cover" />
            ) : (
              <span className="flex size-full items-center justify-center px-2 text-center text-xs font-medium text-slate-600 dark:text-slate-300">
                Sin foto
              </span>
            )}
          </div>
          <div className="relative min-w-0 flex-1 space-y-2">
            <input
              ref={fileRef}
              type="file"
              accept={PHOTO_TYPES.join(',')}
              className="sr-only"
              tabIndex={-1}
              aria-hidden="true"
              onChange={onFile}
              data-testid="contestant-photo"
            />
            <div className="flex flex-wrap gap-2">
              <button type="button" onClick={() => fileRef.current?.click()} disabled={uploading} aria-describedby={hintId} className={secondaryButton}>
                {value ? 'Cambiar foto' : 'Elegir foto'}
              </button>
              {value && !uploading && (
                <button type="button" onClick={removePhoto} className={secondaryButton}>
                  Quitar foto
                </button>
              )}
            </div>
            <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
              JPG, PNG o WebP, máximo 5 MB. Se recorta en cuadrado.
            </p>
            {uploading && <UploadProgress label="Subiendo foto" percent={percent} />}
            {uploadError && <Alert>{uploadError}</Alert>}
          </div>
        </div>
      ) : (
        <div className="space-y-1.5">
          <label htmlFor={urlId} className="block text-sm font-medium">
            URL de la foto
          </label>
          <input
            id={urlId}
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://…"
            value={value}
            onChange={(event) => onChange(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? urlErrorId : undefined}
            className={inputClass}
          />
        </div>
      )}
      {error && <FieldError id={urlErrorId}>{error}</FieldError>}
    </fieldset>
  );
}
