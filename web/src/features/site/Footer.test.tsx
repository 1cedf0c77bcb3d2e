import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { pinClock } from '../../test/clock';
import { Footer } from './Footer';

describe('Footer', () => {
  it("shows the clock's year in the copyright", () => {
    pinClock(new Date(2031, 0, 1, 0, 0, 5));
    render(
      <MemoryRouter>
        <Footer />
      </MemoryRouter>,
    );
    expect(screen.getByRole('contentinfo').textContent).toContain('© 2031 Tribuna');
  });
});
