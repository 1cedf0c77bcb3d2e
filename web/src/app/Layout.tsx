import { Suspense } from 'react';
import { Outlet, ScrollRestoration, useMatches } from 'react-router-dom';
import { PageSpinner } from '../components/Spinner';
import { usePageViews } from '../features/analytics/usePageViews';
import { NavBar } from './navigation/NavBar';
import { PushPromptHost } from './PushPromptHost';
import { ReportHost } from './ReportHost';
import { SiteHeader } from './navigation/SiteHeader';
import { useNavBarVisible } from '../lib/navVisibility';
import { Footer } from '../features/site/Footer';

/** What a route may ask of the layout, through its `handle`. */
export interface RouteHandle {
  footer?: boolean;
  /**
   * The site header for visitors (app/navigation/SiteHeader): every page a signed-out visitor
   * can open. 'home': signed-in users keep its brand line on phones too.
   */
  siteHeader?: 'visitors' | 'home';
}

/** The app shell: skip link, navigation bar or the visitors' site header, the page, the footer on public pages. */
export function Layout() {
  usePageViews();
  const navVisible = useNavBarVisible();
  const handles = useMatches().map((match) => match.handle as RouteHandle | undefined);
  const showFooter = handles.some((handle) => handle?.footer);
  const siteHeader = handles.find((handle) => handle?.siteHeader)?.siteHeader;

  return (
    <div className={`flex min-h-dvh flex-col ${navVisible ? 'pb-[calc(4.5rem+env(safe-area-inset-bottom))] md:pb-0' : ''}`}>
      <a
        href="#contenido"
        className="sr-only z-50 rounded-full bg-fuchsia-600 px-4 py-2 font-bold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Saltar al contenido
      </a>
      <NavBar />
      {siteHeader && <SiteHeader brandForUsersOnPhones={siteHeader === 'home'} />}
      {/* Pages other than home are lazy chunks (app/routes.tsx). The footer waits with the page, so
          it never jumps down when the page arrives (no layout shift). */}
      <Suspense
        fallback={
          <main id="contenido" className="flex-1">
            <PageSpinner />
          </main>
        }
      >
        <main id="contenido" className="flex-1">
          <Outlet />
        </main>
        {showFooter && <Footer />}
      </Suspense>
      <ReportHost />
      <PushPromptHost />
      <ScrollRestoration />
    </div>
  );
}
