import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { Avatar } from './Avatar';

describe('Avatar', () => {
  it('shows a stored picture of this site or an https URL', () => {
    const { container } = render(<Avatar name="Ana" src="/media/avatars/a.webp" />);
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/media/avatars/a.webp');
  });

  it('never puts a javascript:, data: or protocol-relative URL in the page: the initial instead', () => {
    for (const src of ['javascript:alert(1)', 'data:image/svg+xml,<svg onload=alert(1)>', '//evil.example/a.png']) {
      const { container, unmount } = render(<Avatar name="beto" src={src} />);
      expect(container.querySelector('img')).toBeNull();
      expect(container.textContent).toBe('B');
      unmount();
    }
  });
});
