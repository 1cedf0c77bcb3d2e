import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import type { PageViewInput } from '@tribuna/contracts/api/pageViews';
import { callApi } from '../../lib/api';
import { detectDeviceType, getSessionId } from './visitor';

const MAX_LENGTH = 2048;

export function trackPageView(input: PageViewInput): void {
  callApi('pageView', { body: input }).catch((error: unknown) => {
    // The spec: page-view failures are only logged.
    console.debug('No se pudo registrar la visita', error);
  });
}

/**
 * Records a page view on every path change. The first view's referrer is the document's;
 * later ones name the previous in-app page. Mount once, in the app layout.
 */
export function usePageViews(): void {
  const { pathname } = useLocation();
  const previousUrl = useRef<string | null>(null);

  useEffect(() => {
    const url = window.location.origin + pathname;
    // Strict mode runs effects twice in development; one path change is one view.
    if (previousUrl.current === url) return;
    const referrer = previousUrl.current ?? (document.referrer || null);
    previousUrl.current = url;
    trackPageView({
      path: pathname.slice(0, MAX_LENGTH),
      referrer: referrer?.slice(0, MAX_LENGTH) ?? null,
      sessionId: getSessionId(),
      deviceType: detectDeviceType(),
    });
  }, [pathname]);
}
