import { describe, expect, it } from 'vitest';
import { UnsealedCookies } from './unsealed-cookies';

describe('UnsealedCookies', () => {
  it('forgets an entry after its time and keeps at most its capacity, least recently used first', () => {
    const memory = new UnsealedCookies(2, 1000);
    memory.set('a', 'sid-a', 0);
    memory.set('b', 'sid-b', 0);
    expect(memory.get('a', 10)).toBe('sid-a');
    memory.set('c', 'sid-c', 10);
    expect(memory.size).toBe(2);
    expect(memory.get('b', 10)).toBeUndefined();
    expect(memory.get('a', 999)).toBe('sid-a');
    expect(memory.get('a', 1000)).toBeUndefined();
  });
});
