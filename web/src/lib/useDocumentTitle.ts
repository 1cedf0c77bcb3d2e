import { useEffect } from 'react';

const SITE_TITLE = 'Tribuna — Votaciones en vivo';

/** Sets the tab title for the current page ("Muro · Tribuna"); the site title when none. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Tribuna` : SITE_TITLE;
  }, [title]);
}
