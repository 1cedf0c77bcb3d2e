import { describe, expect, it } from 'vitest';
import { presentableImageUrl } from './imageUrls.ts';

describe('presentableImageUrl', () => {
  it('keeps this site’s paths and http(s) URLs', () => {
    for (const url of [
      '/media/ab/cd.webp',
      'https://lh3.googleusercontent.com/a/x=s96-c',
      'http://localhost:3000/media/x.webp',
      'https://cdn.example/p.jpg?w=1&h=2',
    ]) {
      expect(presentableImageUrl(url)).toBe(url);
    }
  });

  it('turns every other scheme, protocol-relative URLs, credentials and mangled values into null', () => {
    const refused = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'data:image/svg+xml;base64,PHN2Zz48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '//evil.example/x.png',
      '/\\evil.example/x.png',
      'https://user:pass@evil.example/x.png',
      'not a url',
      'media/x.webp',
      '',
      '   ',
      null,
      undefined,
    ];
    for (const url of refused) expect({ url, presented: presentableImageUrl(url) }).toEqual({ url, presented: null });
  });
});
