import { useCallback, useEffect, useState } from 'react';
import type { ProfileImageKind } from '@tribuna/contracts/profileRules';
import { imageFileProblem, uploadProfileImage } from './profileImages';
import { useLatest } from './useLatest';

export interface PickedImage {
  file: File;
  /** Object URL of the preview ('' where the browser cannot make one). */
  preview: string;
}

type ByKind<T> = Partial<Record<ProfileImageKind, T>>;

const objectUrl = (file: File) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '');
const revoke = (image: PickedImage | undefined) => {
  if (image?.preview && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(image.preview);
};

/**
 * A form's avatar and banner picks (ImagePicker): checked when picked, previewed (object URLs
 * revoked when replaced or unmounted), then uploaded one after the other with one progress
 * (0 to 1, null when not uploading). `upload` answers the stored URLs of what was picked.
 */
export function usePickedImages() {
  const [images, setImages] = useState<ByKind<PickedImage>>({});
  const [errors, setErrors] = useState<ByKind<string>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const imagesRef = useLatest(images);
  useEffect(() => () => Object.values(imagesRef.current).forEach(revoke), [imagesRef]);

  const pick = useCallback((kind: ProfileImageKind, file: File) => {
    const problem = imageFileProblem(file);
    setErrors((current) => ({ ...current, [kind]: problem ?? undefined }));
    if (problem) return;
    setImages((current) => {
      revoke(current[kind]);
      return { ...current, [kind]: { file, preview: objectUrl(file) } };
    });
  }, []);

  const upload = useCallback(async (): Promise<ByKind<string>> => {
    const picked = imagesRef.current;
    const kinds = (['banner', 'avatar'] as const).filter((kind) => picked[kind]);
    const uploaded: ByKind<string> = {};
    if (kinds.length === 0) return uploaded;
    setProgress(0);
    try {
      for (const [index, kind] of kinds.entries()) {
        const image = await uploadProfileImage(kind, picked[kind]!.file, { onProgress: (fraction) => setProgress((index + fraction) / kinds.length) });
        uploaded[kind] = image.url;
      }
    } finally {
      setProgress(null);
    }
    return uploaded;
  }, [imagesRef]);

  return { images, errors, progress, pick, upload };
}
