import { useId, type ChangeEvent } from 'react';
import { PROFILE_IMAGE_TYPES, type ProfileImageKind } from '@tribuna/contracts/profileRules';
import { initialOf } from './Avatar';
import { CameraIcon } from './featureIcons';

export interface ImagePickerTexts {
  label: string;
  hint: string;
  button: string;
}

const TEXTS: Record<ProfileImageKind, ImagePickerTexts> = {
  banner: { label: 'Banner', hint: '1500x500px, máx. 5MB', button: 'Cambiar banner' },
  avatar: { label: 'Foto de perfil', hint: '400x400px, máx. 5MB', button: 'Cambiar foto de perfil' },
};

interface ImagePickerProps {
  kind: ProfileImageKind;
  /** What the frame shows: the new pick's preview, else the current image, else the placeholder. */
  src: string | null;
  /** The initial shown in an empty avatar frame. */
  name: string;
  disabled?: boolean;
  error?: string | null;
  onPick: (file: File) => void;
  /** Other words for the frame (a group's 'Portada'); by default the profile's. */
  texts?: ImagePickerTexts;
}

/**
 * A banner (3:1) or avatar (1:1, round) picker. The preview is cropped to the frame exactly as the
 * server crops the upload (centred cover), so what is seen is what will be saved.
 */
export function ImagePicker({ kind, src, name, disabled = false, error, onPick, texts = TEXTS[kind] }: ImagePickerProps) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const banner = kind === 'banner';

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) onPick(file);
  }

  const frame = banner ? 'aspect-[3/1] w-full rounded-2xl' : 'size-24 rounded-full';
  return (
    <div className={banner ? 'space-y-1.5' : 'flex items-center gap-4'}>
      <div className={`relative shrink-0 overflow-hidden bg-slate-200 dark:bg-white/10 ${frame}`}>
        {src ? (
          <img src={src} alt="" className="size-full object-cover" />
        ) : banner ? (
          <div aria-hidden="true" className="brand-gradient size-full" />
        ) : (
          <span aria-hidden="true" className="brand-gradient flex size-full items-center justify-center text-4xl font-black text-white">
            {initialOf(name)}
          </span>
        )}
      </div>
      <div className="min-w-0 space-y-1">
        <input
          id={inputId}
          type="file"
          accept={PROFILE_IMAGE_TYPES.join(',')}
          disabled={disabled}
          onChange={onChange}
          aria-describedby={`${hintId}${error ? ` ${errorId}` : ''}`}
          aria-invalid={error ? true : undefined}
          className="peer sr-only"
        />
        <label
          htmlFor={inputId}
          className={`inline-flex min-h-10 cursor-pointer items-center gap-2 rounded-full px-4 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 transition peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-fuchsia-500 hover:bg-slate-100 peer-disabled:cursor-not-allowed peer-disabled:opacity-60 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/10`}
        >
          <CameraIcon className="size-4" />
          {texts.button}
        </label>
        <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
          {texts.label}: {texts.hint}
        </p>
        {error && (
          <p id={errorId} role="alert" className="text-xs font-medium text-rose-600 dark:text-rose-400">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
