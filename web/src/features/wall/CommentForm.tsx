import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { CreatedComment } from '@tribuna/contracts/api/wall';
import { WALL_LIMITS } from '@tribuna/contracts/wallRules';
import { CloseIcon } from '../../components/icons';
import { errorMessage } from '../../lib/api';
import { noteSilenced } from '../../lib/silence';
import { CameraIcon } from './icons';
import { commentFormData, uploadComment } from './upload';
import { validateComment, validateCommentImage } from './validation';

interface CommentFormProps {
  postId: string;
  /** A reply to this top-level comment; null for a comment on the post. */
  parentCommentId: string | null;
  onCreated: (created: CreatedComment) => void;
  autoFocus?: boolean;
  onCancel?: () => void;
}

/** Sending a comment failed: the server's message, else this. */
export const COMMENT_FAILED = 'No se pudo enviar el comentario';

/** The text input, an optional image (camera button) with its preview, and Enviar. */
export function CommentForm({ postId, parentCommentId, onCreated, autoFocus = false, onCancel }: CommentFormProps) {
  const [content, setContent] = useState('');
  const [image, setImage] = useState<{ file: File; preview: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const reply = parentCommentId !== null;
  const label = reply ? 'Escribe una respuesta' : 'Escribe un comentario';

  useEffect(
    () => () => {
      if (image?.preview && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(image.preview);
    },
    [image],
  );

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = validateCommentImage(file);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setImage({ file, preview: typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '' });
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const problem = validateComment(content);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setSending(true);
    try {
      const created = await uploadComment(postId, commentFormData(content.trim(), parentCommentId, image ? { file: image.file, alt: '' } : null));
      setContent('');
      setImage(null);
      onCreated(created);
    } catch (failure) {
      console.debug(COMMENT_FAILED, failure);
      setError(errorMessage(failure, COMMENT_FAILED));
      noteSilenced(failure);
    } finally {
      setSending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={reply ? 'Responder' : 'Comentar'} className="space-y-2">
      <div className="flex items-center gap-1.5">
        <input
          type="text"
          value={content}
          onChange={(event) => setContent(event.target.value)}
          placeholder={label}
          aria-label={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          maxLength={WALL_LIMITS.commentText * 2}
          autoFocus={autoFocus}
          disabled={sending}
          className="min-w-0 flex-1 rounded-full bg-slate-100 px-4 py-2 text-sm placeholder:text-slate-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-fuchsia-500 dark:bg-white/5 dark:placeholder:text-slate-400"
        />
        <input
          ref={fileRef}
          type="file"
          accept="image/*"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={onFile}
          data-testid={reply ? 'reply-image' : 'comment-image'}
        />
        <button
          type="button"
          onClick={() => fileRef.current?.click()}
          aria-label="Agregar imagen"
          title="Agregar imagen"
          disabled={sending}
          className="inline-flex size-9 shrink-0 items-center justify-center rounded-full text-fuchsia-600 hover:bg-fuchsia-50 dark:text-fuchsia-400 dark:hover:bg-white/10"
        >
          <CameraIcon className="size-5" />
        </button>
        <button
          type="submit"
          disabled={sending}
          className="shrink-0 rounded-full bg-fuchsia-600 px-3.5 py-2 text-sm font-bold text-white hover:bg-fuchsia-700 disabled:opacity-60"
        >
          Enviar
        </button>
        {onCancel && (
          <button
            type="button"
            onClick={onCancel}
            className="shrink-0 rounded-full px-2 py-2 text-sm font-semibold text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-white/10"
          >
            Cancelar
          </button>
        )}
      </div>
      {image && (
        <div className="relative inline-block">
          {image.preview ? (
            <img src={image.preview} alt="Vista previa de la imagen" className="h-24 rounded-xl object-cover" />
          ) : (
            <span className="inline-block rounded-xl bg-slate-100 px-3 py-2 text-xs dark:bg-white/5">{image.file.name}</span>
          )}
          <button
            type="button"
            onClick={() => setImage(null)}
            aria-label="Quitar imagen"
            className="absolute -top-2 -right-2 inline-flex size-7 items-center justify-center rounded-full bg-black/70 text-white hover:bg-black/90"
          >
            <CloseIcon className="size-4" />
          </button>
        </div>
      )}
      {error && (
        <p id={errorId} role="alert" className="px-2 text-xs font-medium text-rose-600 dark:text-rose-400">
          {error}
        </p>
      )}
    </form>
  );
}
