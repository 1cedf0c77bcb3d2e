import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { PostView } from '@tribuna/contracts/api/wall';
import { VIDEO_ACCEPT, WALL_LIMITS, WALL_MESSAGES, type PostVisibility } from '@tribuna/contracts/wallRules';
import { Alert } from '../../components/Alert';
import { Avatar } from '../../components/Avatar';
import { CloseIcon } from '../../components/icons';
import { SilenceBanner } from '../../components/SilenceBanner';
import { errorMessage } from '../../lib/api';
import { displayNameOf } from '../../lib/displayName';
import { useSessionStore } from '../../lib/session/sessionStore';
import { noteSilenced } from '../../lib/silence';
import { EmojiPicker } from './EmojiPicker';
import { ImageIcon, SmileIcon, VideoIcon } from './icons';
import { postFormData, uploadPost, uploadVideoPost, videoPostFormData, type PostAudience } from './upload';
import { MEDIA_EXCLUSIVE, textLength, validatePost, validatePostFiles, validateVideoDuration, validateVideoFile, validateVideoPost } from './validation';
import { readVideoDuration } from './videoDuration';
import { useVideoUploadsStore } from './videoUploadsStore';
import { UploadProgress } from '../../components/UploadProgress';
import { useLatest } from '../../lib/useLatest';

interface PickedImage {
  key: number;
  file: File;
  /** Object URL of the preview ('' where the browser cannot make one). */
  preview: string;
  alt: string;
}

interface PickedVideo {
  file: File;
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
  /** Posting in a group: for its members (visibility 'group'); elsewhere the author picks 'Público' or 'Seguidores'. */
  groupId?: string;
}

/** The audiences offered outside groups. */
const VISIBILITY_CHOICES: ReadonlyArray<{ value: Exclude<PostVisibility, 'group'>; label: string }> = [
  { value: 'public', label: 'Público' },
  { value: 'followers', label: 'Seguidores' },
];

/**
 * The wall's composer: text with a counter, up to 10 images with alt texts or one video clip (MP4,
 * MOV or WebM, at most 50 MB and 3 minutes) with its alt text, emoji, upload progress. A clip is
 * processed after the upload: the feed shows 'Procesando video…' (VideoUploadCards) until its post
 * is published.
 */
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
  return (
    <>
      <SilenceBanner />
      <SignedInComposer onCreated={onCreated} groupId={groupId} name={displayNameOf(user)} avatarUrl={user.avatarUrl} userId={user.id} />
    </>
  );
}

function SignedInComposer({ onCreated, groupId, name, avatarUrl, userId }: ComposerProps & { name: string; avatarUrl: string | null; userId: string }) {
  const [content, setContent] = useState('');
  const [images, setImages] = useState<PickedImage[]>([]);
  const [video, setVideo] = useState<PickedVideo | null>(null);
  /** A picked clip's length is being read. */
  const [checkingVideo, setCheckingVideo] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [visibility, setVisibility] = useState<Exclude<PostVisibility, 'group'>>('public');
  const audience: PostAudience = groupId ? { groupId, visibility: 'group' } : { visibility };
  const visibilityId = useId();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const videoRef = useRef<HTMLInputElement>(null);
  /** Bumped by each pick, so the length of a clip replaced meanwhile is ignored. */
  const videoPick = useRef(0);
  const upload = useRef<AbortController | null>(null);
  const caret = useRef<number | null>(null);
  const nextKey = useRef(0);
  const errorId = useId();
  const counterId = useId();
  const imagesRef = useLatest(images);
  const videoPreview = useLatest(video?.preview ?? '');
  const sending = progress !== null;
  const length = textLength(content);

  useEffect(() => () => imagesRef.current.forEach((image) => revoke(image.preview)), [imagesRef]);
  useEffect(() => () => revoke(videoPreview.current), [videoPreview]);

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

  function pickImages() {
    if (video) return setError(MEDIA_EXCLUSIVE.imagesAfterVideo);
    fileRef.current?.click();
  }

  function pickVideo() {
    if (images.length > 0) return setError(MEDIA_EXCLUSIVE.videoAfterImages);
    videoRef.current?.click();
  }

  function onFiles(event: ChangeEvent<HTMLInputElement>) {
    const picked = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (picked.length === 0) return;
    if (video) return setError(MEDIA_EXCLUSIVE.imagesAfterVideo);
    const problem = validatePostFiles([...images.map((i) => i.file), ...picked]);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setImages((current) => [...current, ...picked.map((file) => ({ key: ++nextKey.current, file, preview: objectUrl(file), alt: '' }))]);
  }

  async function onVideo(event: ChangeEvent<HTMLInputElement>) {
    const picked = Array.from(event.target.files ?? []);
    event.target.value = '';
    const file = picked[0];
    if (!file) return;
    const pick = ++videoPick.current;
    const problem = images.length > 0 ? MEDIA_EXCLUSIVE.videoAfterImages : picked.length > 1 ? WALL_MESSAGES.videoOne : validateVideoFile(file);
    if (problem) {
      setCheckingVideo(false);
      return setError(problem);
    }
    setError(null);
    setCheckingVideo(true);
    const tooLong = validateVideoDuration(await readVideoDuration(file));
    if (pick !== videoPick.current) return;
    setCheckingVideo(false);
    if (tooLong) return setError(tooLong);
    revoke(videoPreview.current);
    setVideo({ file, preview: objectUrl(file), alt: '' });
  }

  function removeVideo() {
    videoPick.current++;
    revoke(videoPreview.current);
    setVideo(null);
  }

  function cancelUpload() {
    upload.current?.abort();
  }

  async function sendVideo(clip: PickedVideo) {
    const problem = validateVideoPost(content, clip.file);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setProgress(0);
    const controller = new AbortController();
    upload.current = controller;
    try {
      const queued = await uploadVideoPost(videoPostFormData(content.trim(), clip, audience), { onProgress: setProgress, signal: controller.signal });
      const store = useVideoUploadsStore.getState();
      if (store.userId !== userId) store.reset(userId);
      store.added(queued);
      revoke(clip.preview);
      setVideo(null);
      setContent('');
      setEmojiOpen(false);
    } catch (failure) {
      if (controller.signal.aborted) return;
      console.debug(WALL_MESSAGES.createPostFailed, failure);
      setError(errorMessage(failure, WALL_MESSAGES.createPostFailed));
      noteSilenced(failure);
    } finally {
      upload.current = null;
      setProgress(null);
    }
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
    if (sending || checkingVideo) return;
    if (video) return sendVideo(video);
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
      const post = await uploadPost(postFormData(content.trim(), images, audience), { onProgress: setProgress });
      images.forEach((image) => revoke(image.preview));
      setImages([]);
      setContent('');
      setEmojiOpen(false);
      onCreated(post);
    } catch (failure) {
      console.debug(WALL_MESSAGES.createPostFailed, failure);
      setError(errorMessage(failure, WALL_MESSAGES.createPostFailed));
      noteSilenced(failure);
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
          {!groupId && (
            <div className="mt-2 flex items-center gap-2 text-xs">
              <label htmlFor={visibilityId} className="font-semibold text-slate-600 dark:text-slate-400">
                Visible para
              </label>
              <select
                id={visibilityId}
                value={visibility}
                disabled={sending}
                onChange={(event) => setVisibility(event.target.value as typeof visibility)}
                className="rounded-full bg-slate-100 py-1 pr-7 pl-3 text-xs font-bold text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-fuchsia-500 dark:bg-white/5 dark:text-slate-100"
              >
                {VISIBILITY_CHOICES.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
      </div>

      {images.length > 0 && (
        <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3" aria-label="Imágenes seleccionadas">
          {images.map((image, index) => (
            <li key={image.key} className="space-y-1.5">
              <div className="relative aspect-square overflow-hidden rounded-2xl bg-slate-200 dark:bg-white/10">
                {image.preview && <img src={image.preview} alt="" className="size-full object-cover" />}
                <RemoveMediaButton label={`Quitar imagen ${index + 1}`} onClick={() => removeImage(image.key)} disabled={sending} />
              </div>
              <AltTextInput
                value={image.alt}
                label={`Texto alternativo (opcional) de la imagen ${index + 1}`}
                disabled={sending}
                onChange={(alt) => setImages((current) => current.map((i) => (i.key === image.key ? { ...i, alt } : i)))}
              />
            </li>
          ))}
        </ul>
      )}

      {video && (
        <div className="mt-3 space-y-1.5">
          <div className="relative overflow-hidden rounded-2xl bg-black">
            {video.preview && (
              // A local preview to check the clip: muted, played only by hand; `#t` shows a first frame instead of black.
              <video
                src={`${video.preview}#t=0.1`}
                muted
                controls
                playsInline
                preload="metadata"
                aria-label={`Vista previa del video ${video.file.name}`}
                className="block max-h-72 w-full object-contain"
                data-testid="video-preview"
              />
            )}
            {!video.preview && <p className="px-4 py-6 text-center text-sm text-white/80">{video.file.name}</p>}
            <RemoveMediaButton label="Quitar video" onClick={removeVideo} disabled={sending} />
          </div>
          <AltTextInput
            value={video.alt}
            label="Texto alternativo (opcional) del video"
            disabled={sending}
            onChange={(alt) => setVideo((current) => (current ? { ...current, alt } : current))}
          />
        </div>
      )}

      {checkingVideo && (
        <p role="status" className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          Revisando el video…
        </p>
      )}

      {sending && (
        <div className="mt-3 flex items-center gap-3">
          <UploadProgress label={video ? 'Subiendo video' : 'Subiendo publicación'} percent={percent} className="flex-1" />
          {video && (
            <>
              <span aria-hidden="true" className="text-xs text-slate-600 tabular-nums dark:text-slate-400">
                {percent}%
              </span>
              <button
                type="button"
                onClick={cancelUpload}
                className="rounded-full px-3 py-1 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/10"
              >
                Cancelar
              </button>
            </>
          )}
        </div>
      )}

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
          <input
            ref={videoRef}
            type="file"
            accept={VIDEO_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            onChange={onVideo}
            data-testid="post-video"
          />
          <button
            type="button"
            onClick={pickImages}
            disabled={sending}
            aria-label="Agregar imágenes"
            title="Agregar imágenes"
            className="inline-flex size-10 items-center justify-center rounded-full text-fuchsia-600 hover:bg-fuchsia-50 dark:text-fuchsia-400 dark:hover:bg-white/10"
          >
            <ImageIcon className="size-5" />
          </button>
          <button
            type="button"
            onClick={pickVideo}
            disabled={sending || checkingVideo}
            aria-label="Agregar video"
            title="Agregar video"
            className="inline-flex size-10 items-center justify-center rounded-full text-fuchsia-600 hover:bg-fuchsia-50 dark:text-fuchsia-400 dark:hover:bg-white/10"
          >
            <VideoIcon className="size-5" />
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
            disabled={sending || checkingVideo}
            className="rounded-full bg-fuchsia-600 px-5 py-2 text-sm font-bold text-white transition hover:bg-fuchsia-700 disabled:opacity-60"
          >
            {sending ? 'Publicando…' : 'Publicar'}
          </button>
        </div>
      </div>
    </form>
  );
}

/** The round ✕ over a chosen image or clip. */
function RemoveMediaButton({ label, onClick, disabled }: { label: string; onClick: () => void; disabled: boolean }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      disabled={disabled}
      className="absolute top-1.5 right-1.5 inline-flex size-8 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/80"
    >
      <CloseIcon className="size-4" />
    </button>
  );
}

/** The optional alternative text of a chosen image or clip. */
function AltTextInput({ value, label, disabled, onChange }: { value: string; label: string; disabled: boolean; onChange: (alt: string) => void }) {
  return (
    <input
      type="text"
      value={value}
      maxLength={WALL_LIMITS.altText}
      onChange={(event) => onChange(event.target.value)}
      placeholder="Texto alternativo (opcional)"
      aria-label={label}
      disabled={disabled}
      className="w-full rounded-xl bg-slate-100 px-3 py-1.5 text-xs placeholder:text-slate-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-fuchsia-500 dark:bg-white/5"
    />
  );
}
