import { describe, expect, it, vi } from 'vitest';
import { detectDeviceType, getSessionId, SESSION_ID_KEY } from './visitor';

function stubViewport(narrow: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: narrow && query === '(max-width: 767px)',
    media: query,
    addEventListener() {},
    removeEventListener() {},
  }));
}

describe('getSessionId', () => {
  it('creates an id matching the API pattern and keeps it in localStorage', () => {
    const id = getSessionId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(localStorage.getItem(SESSION_ID_KEY)).toBe(id);
    expect(getSessionId()).toBe(id);
  });

  it('reuses a stored id', () => {
    localStorage.setItem(SESSION_ID_KEY, 'abcdef1234567890');
    expect(getSessionId()).toBe('abcdef1234567890');
  });

  it('replaces a stored value the API would refuse', () => {
    localStorage.setItem(SESSION_ID_KEY, 'bad id!');
    const id = getSessionId();
    expect(id).not.toBe('bad id!');
    expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(localStorage.getItem(SESSION_ID_KEY)).toBe(id);
  });

  it('keeps one id for the page when storage is refused', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const id = getSessionId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(getSessionId()).toBe(id);
  });
});

describe('detectDeviceType', () => {
  const desktopUa = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';
  const iphoneUa = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

  it('says desktop for a wide viewport and a desktop browser', () => {
    stubViewport(false);
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(desktopUa);
    expect(detectDeviceType()).toBe('desktop');
  });

  it('says mobile below the md breakpoint', () => {
    stubViewport(true);
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(desktopUa);
    expect(detectDeviceType()).toBe('mobile');
  });

  it('says mobile for a mobile browser, whatever the width', () => {
    stubViewport(false);
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(iphoneUa);
    expect(detectDeviceType()).toBe('mobile');
  });
});
