import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/** The query flag the dashboard's quick actions add: /admin/temporadas?nuevo=1 opens the create modal. */
export const CREATE_PARAM = 'nuevo';

/**
 * Whether the URL asks for the create modal (?nuevo=1), and a function that drops the flag (when
 * the modal closes) so a reload or Back does not open it again.
 */
export function useCreateParam(): [boolean, () => void] {
  const [params, setParams] = useSearchParams();
  const requested = params.get(CREATE_PARAM) === '1';
  const clear = useCallback(() => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(CREATE_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [setParams]);
  return [requested, clear];
}
