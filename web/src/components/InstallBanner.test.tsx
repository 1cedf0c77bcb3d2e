import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { INSTALL_DISMISSED_KEY, listenForInstallPrompt, useInstallPromptStore } from '../lib/pwa/installPrompt';
import { InstallBanner } from './InstallBanner';

const TITLE = 'Instala Tribuna en tu dispositivo';

function offerInstallPrompt() {
  const event = new Event('beforeinstallprompt', { cancelable: true });
  const prompt = vi.fn().mockResolvedValue(undefined);
  Object.assign(event, { prompt, userChoice: Promise.resolve({ outcome: 'accepted', platform: 'web' }) });
  window.dispatchEvent(event);
  return { event, prompt };
}

function renderBanner() {
  return render(
    <MemoryRouter>
      <InstallBanner />
    </MemoryRouter>,
  );
}

describe('InstallBanner', () => {
  let stopListening: () => void;

  beforeEach(() => {
    vi.useFakeTimers();
    useInstallPromptStore.setState({ deferredPrompt: null, loadedAt: Date.now() });
    stopListening = listenForInstallPrompt();
  });

  afterEach(() => {
    stopListening();
    vi.useRealTimers();
  });

  it('keeps the browser prompt and shows the banner only once 30 s have passed', () => {
    const { event } = offerInstallPrompt();
    expect(event.defaultPrevented).toBe(true);
    renderBanner();

    act(() => vi.advanceTimersByTime(29_999));
    expect(screen.queryByText(TITLE)).toBeNull();

    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText(TITLE)).toBeTruthy();
  });

  it('counts the 30 s from load, not from when the banner mounts', () => {
    offerInstallPrompt();
    act(() => vi.advanceTimersByTime(31_000));
    renderBanner();
    expect(screen.getByText(TITLE)).toBeTruthy();
  });

  it('stays hidden when the browser offered no install prompt', () => {
    renderBanner();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.queryByText(TITLE)).toBeNull();
  });

  it('stays hidden when the app already runs installed', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(display-mode: standalone)', media: query }));
    offerInstallPrompt();
    renderBanner();
    act(() => vi.advanceTimersByTime(30_000));
    expect(screen.queryByText(TITLE)).toBeNull();
  });

  it('calls the browser prompt from Instalar, then hides', async () => {
    const { prompt } = offerInstallPrompt();
    renderBanner();
    act(() => vi.advanceTimersByTime(30_000));

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Instalar' })));

    expect(prompt).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(TITLE)).toBeNull();
  });

  it('never shows again once dismissed', () => {
    offerInstallPrompt();
    const first = renderBanner();
    act(() => vi.advanceTimersByTime(30_000));
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar y no volver a mostrar' }));
    expect(screen.queryByText(TITLE)).toBeNull();
    expect(localStorage.getItem(INSTALL_DISMISSED_KEY)).toBe('1');
    first.unmount();

    // A later visit: fresh load, fresh prompt, but the dismissal is remembered.
    useInstallPromptStore.setState({ loadedAt: Date.now() });
    offerInstallPrompt();
    renderBanner();
    act(() => vi.advanceTimersByTime(120_000));
    expect(screen.queryByText(TITLE)).toBeNull();
  });
});
