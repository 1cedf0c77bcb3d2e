import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { PostView } from '@tribuna/contracts/api/wall';
import { WALL_LIMITS, WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { Alert } from '../../components/Alert';
import { Avatar } from '../../components/Avatar';
import { CloseIcon } from '../../components/icons';
import { errorMessage } from '../../lib/api';
import { displayNameOf } from '../../lib/displayName';
import { useSessionStore } from '../../lib/session/sessionStore';
import { EmojiPicker } from './EmojiPicker';
import { ImageIcon, SmileIcon } from './icons';
import { postFormData, uploadPost } from './upload';
import { textLength, validatePost, validatePostFiles } from './validation';
import { UploadProgress } from '../../components/UploadProgress';
import { useLatest } from '../../lib/useLatest';

interface PickedImage {
  key: number;
  file: File;
  /** Object URL of the preview ('' where the browser cannot make one). */
  preview: string;
  alt: string;
}

const objectUrl = (file: File) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '');
const revoke = (url: string) => {
  if (url && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
};

interface ComposerProps {
  /** The new post, as the server answered it (the feed puts it on top). */
  onCreated: (post: PostView) => void;
  groupId?: string;
}

/** The wall's composer: text with a counter, up to 10 images with alt texts, emoji, upload progress. */
export function Composer({ onCreated, groupId }: ComposerProps) {
  const user = useSessionStore((state) => state.user);
  if (!user) {
    return (
      <div className="rounded-3xl bg-white p-4 ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10">
        <textarea
          disabled
          aria-label="Inicia sesión para publicar"
          placeholder="Inicia sesión para publicar"
          rows={2}
          className="w-full resize-none rounded-2xl bg-slate-100 px-4 py-3 text-sm dark:bg-white/5"
        />
        <Link to="/login" className="mt-3 inline-flex rounded-full bg-fuchsia-600 px-4 py-2 text-sm font-bold text-white hover:bg-fuchsia-700">
          Inicia sesión para publicar
        </Link>
      </div>
    );
  }
  return <SignedInComposer onCreated={onCreated} groupId={groupId} name={displayNameOf(user)} avatarUrl={user.avatarUrl} />;
}

function SignedInComposer({ onCreated, groupId, name, avatarUrl }: ComposerProps & { name: string; avatarUrl: string | null }) {
  const [content, setContent] = useState('');
  const [images, setImages] = useState<PickedImage[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);
  const nextKey = useRef(0);
  const errorId = useId();
  const counterId = useId();
  const imagesRef = useLatest(images);
  const sending = progress !== null;
  const length = textLength(content);

  useEffect(() => () => imagesRef.current.forEach((image) => revoke(image.preview)), [imagesRef]);

  useEffect(() => {
    // Put the caret back after an emoji was inserted.
    if (caret.current === null || !textareaRef.current) return;
    textareaRef.current.focus();
    textareaRef.current.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  }, [content]);

  function insertEmoji(emoji: string) {
    const textarea = textareaRef.current;
    const start = textarea?.selectionStart ?? content.length;
    const end = textarea?.selectionEnd ?? content.length;
    caret.current = start + emoji.length;
    setContent(content.slice(0, start) + emoji + content.slice(end));
  }

  function onFiles(event: ChangeEvent<HTMLInputElement>) {
    const picked = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (picked.length === 0) return;
    const problem = validatePostFiles([...images.map((i) => i.file), ...picked]);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setImages((current) => [...current, ...picked.map((file) => ({ key: ++nextKey.current, file, preview: objectUrl(file), alt: '' }))]);
  }

  function removeImage(key: number) {
    setImages((current) => {
      const gone = current.find((image) => image.key === key);
      if (gone) revoke(gone.preview);
      return current.filter((image) => image.key !== key);
    });
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const problem = validatePost(
      content,
      images.map((i) => i.file),
    );
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setProgress(0);
    try {
      const post = await uploadPost(postFormData(content.trim(), images, groupId), { onProgress: setProgress });
      images.forEach((image) => revoke(image.preview));
      setImages([]);
      setContent('');
      setEmojiOpen(false);
      onCreated(post);
    } catch (failure) {
      console.debug(WALL_MESSAGES.createPostFailed, failure);
      setError(errorMessage(failure, WALL_MESSAGES.createPostFailed));
    } finally {
      setProgress(null);
    }
  }

  const percent = Math.round((progress ?? 0) * 100);
  return (
    <form
      onSubmit={onSubmit}
      aria-label="Nueva publicación"
      className="rounded-3xl bg-white p-4 shadow-sm ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10"
      noValidate
    >
      <div className="flex gap-3">
        <Avatar name={name} src={avatarUrl} />
        <div className="min-w-0 flex-1">
          <textarea
            ref={textareaRef}
            value={content}
            onChange={(event) => setContent(event.target.value)}
            placeholder="¿Qué está pasando?"
            aria-label="¿Qué está pasando?"
            aria-describedby={`${counterId}${error ? ` ${errorId}` : ''}`}
            aria-invalid={error ? true : undefined}
            rows={3}
            disabled={sending}
            className="w-full resize-y rounded-2xl bg-slate-100 px-4 py-3 text-base placeholder:text-slate-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-fuchsia-500 dark:bg-white/5 dark:placeholder:text-slate-400"
          />
        </div>
      </div>

      {images.length > 0 && (
        <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3" aria-label="Imágenes seleccionadas">
          {images.map((image, index) => (
            <li key={image.key} className="space-y-1.5">
              <div className="relative aspect-square overflow-hidden rounded-2xl bg-slate-200 dark:bg-white/10">
                {image.preview && <img src={image.preview} alt="" className="size-full object-cover" />}
                <button
                  type="button"
                  onClick={() => removeImage(image.key)}
                  aria-label={`Quitar imagen ${index + 1}`}
                  disabled={sending}
                  className="absolute top-1.5 right-1.5 inline-flex size-8 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/80"
                >
                  <CloseIcon className="size-4" />
                </button>
              </div>
              <input
                type="text"
                value={image.alt}
                maxLength={WALL_LIMITS.altText}
                onChange={(event) => {
                  const alt = event.target.value;
                  setImages((current) => current.map((i) => (i.key === image.key ? { ...i, alt } : i)));
                }}
                placeholder="Texto alternativo (opcional)"
                aria-label={`Texto alternativo (opcional) de la imagen ${index + 1}`}
                disabled={sending}
                className="w-full rounded-xl bg-slate-100 px-3 py-1.5 text-xs placeholder:text-slate-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-fuchsia-500 dark:bg-white/5"
              />
            </li>
          ))}
        </ul>
      )}

      {sending && <UploadProgress label="Subiendo publicación" percent={percent} className="mt-3" />}

      {error && (
        <Alert id={errorId} className="mt-3">
          {error}
        </Alert>
      )}

      <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
        <div className="relative flex items-center gap-1">
          <input
            ref={fileRef}
            type="file"
            accept="image/*"
            multiple
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            onChange={onFiles}
            data-testid="post-images"
          />
          <button
            type="button"
            onClick={() => fileRef.current?.click()}
            disabled={sending}
            aria-label="Agregar imágenes"
            title="Agregar imágenes"
            className="inline-flex size-10 items-center justify-center rounded-full text-fuchsia-600 hover:bg-fuchsia-50 dark:text-fuchsia-400 dark:hover:bg-white/10"
          >
            <ImageIcon className="size-5" />
          </button>
          <button
            type="button"
            onClick={() => setEmojiOpen((open) => !open)}
            disabled={sending}
            aria-label="Agregar emoji"
            aria-expanded={emojiOpen}
            title="Agregar emoji"
            className="inline-flex size-10 items-center justify-center rounded-full text-fuchsia-600 hover:bg-fuchsia-50 dark:text-fuchsia-400 dark:hover:bg-white/10"
          >
            <SmileIcon className="size-5" />
          </button>
          {emojiOpen && <EmojiPicker onPick={insertEmoji} onClose={() => setEmojiOpen(false)} />}
        </div>
        <div className="flex items-center gap-3">
          <span
            id={counterId}
            className={`text-xs tabular-nums ${length > WALL_LIMITS.postText ? 'font-bold text-rose-600 dark:text-rose-400' : 'text-slate-500 dark:text-slate-400'}`}
          >
            {length}/{WALL_LIMITS.postText}
          </span>
          <button
            type="submit"
            disabled={sending}
            className="rounded-full bg-fuchsia-600 px-5 py-2 text-sm font-bold text-white transition hover:bg-fuchsia-700 disabled:opacity-60"
          >
            {sending ? 'Publicando…' : 'Publicar'}
          </button>
        </div>
      </div>
    </form>
  );
}
