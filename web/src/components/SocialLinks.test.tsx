import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { SiteConfig } from '@tribuna/contracts/api/site';
import { jsonResponse } from '../test/fixtures';
import { useSiteStore } from '../lib/siteStore';
import { SocialLinks } from './SocialLinks';

const config = (social: Partial<SiteConfig['social']>): SiteConfig => ({
  contactEmail: 'contacto@tribuna.mx',
  devLogin: false,
  social: { whatsapp: null, facebook: null, instagram: null, tiktok: null, x: null, ...social },
});

describe('SocialLinks', () => {
  beforeEach(() => {
    useSiteStore.setState({ config: null, status: 'idle' });
  });

  it('loads the site config once and renders only the configured networks', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValue(jsonResponse(200, config({ whatsapp: 'https://chat.whatsapp.com/abc', instagram: 'https://instagram.com/tribuna' })));
    vi.stubGlobal('fetch', fetchMock);

    render(
      <>
        <SocialLinks />
        <SocialLinks />
      </>,
    );

    const whatsapp = await screen.findAllByRole('link', { name: 'Únete a nuestro grupo de WhatsApp' });
    expect(whatsapp[0]?.getAttribute('href')).toBe('https://chat.whatsapp.com/abc');
    expect(screen.getAllByRole('link', { name: 'Síguenos en Instagram' })[0]?.getAttribute('rel')).toContain('noopener');
    expect(screen.queryByRole('link', { name: 'Síguenos en Facebook' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Síguenos en X' })).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith('/api/site', expect.anything());
  });

  it('renders nothing when no network is configured, and ignores non-web URLs', () => {
    useSiteStore.setState({ config: config({ facebook: 'javascript:alert(1)' }), status: 'ready' });
    const { container } = render(<SocialLinks />);
    expect(container.innerHTML).toBe('');
  });
});
