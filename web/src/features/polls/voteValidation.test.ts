import { describe, expect, it } from 'vitest';
import { parsePoints, sumAllocations, toAllocationList, validateAllocations, validateSingleChoice } from './voteValidation';

describe('vote validation', () => {
  it('needs an option in single-choice mode', () => {
    expect(validateSingleChoice(null)).toBe('Por favor selecciona una opción');
    expect(validateSingleChoice('o1')).toBeNull();
  });

  it('needs at least one point and no more than available in points mode', () => {
    expect(validateAllocations({}, 10)).toBe('Por favor asigna al menos 1 punto');
    expect(validateAllocations({ a: 0, b: 0 }, 10)).toBe('Por favor asigna al menos 1 punto');
    expect(validateAllocations({ a: 6, b: 5 }, 10)).toBe('No puedes asignar más de 10 puntos');
    expect(validateAllocations({ a: 6, b: 4 }, 10)).toBeNull();
  });

  it('sends only the options with points', () => {
    expect(sumAllocations({ a: 2, b: 0, c: 3 })).toBe(5);
    expect(toAllocationList({ a: 2, b: 0, c: 3 })).toEqual([
      { optionId: 'a', points: 2 },
      { optionId: 'c', points: 3 },
    ]);
  });

  it('reads typed points as whole, non-negative and bounded', () => {
    expect(parsePoints('7')).toBe(7);
    expect(parsePoints('')).toBe(0);
    expect(parsePoints('-3')).toBe(0);
    expect(parsePoints('2.9')).toBe(2);
    expect(parsePoints('99999')).toBe(1000);
  });
});
