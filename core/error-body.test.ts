import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorFromAnswer, NO_ANSWER_STATUS } from './error-body';
import { isRecord } from './is-record';

describe('isRecord', () => {
  it('is a JSON object, not null or an array', () => {
    expect(isRecord({ type: 'x' })).toBe(true);
    expect(isRecord({})).toBe(true);
    for (const value of [null, undefined, [], ['type'], 'text', 3, true]) expect(isRecord(value), String(value)).toBe(false);
  });
});

describe('apiErrorFromAnswer', () => {
  it('reads the code, the words, the details and the wait of an answer', () => {
    const error = apiErrorFromAnswer(
      JSON.stringify({ message: 'Slow down', code: 'VISITOR_LIMIT', error: 'Slow down', details: { name: ['Too long'] } }),
      429,
      'Too Many Requests',
      ' 120 ',
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Slow down', status: 429, code: 'VISITOR_LIMIT', error: 'Slow down', details: { name: ['Too long'] }, retryAfterSeconds: 120 });
  });

  it('falls back to the raw text, the status text, then "HTTP {status}", with no code', () => {
    expect(apiErrorFromAnswer('Bad gateway from the proxy', 502, 'Bad Gateway')).toMatchObject({ message: 'Bad gateway from the proxy', code: undefined });
    expect(apiErrorFromAnswer('', 502, 'Bad Gateway').message).toBe('Bad Gateway');
    expect(apiErrorFromAnswer('', 502, '').message).toBe('HTTP 502');
    expect(apiErrorFromAnswer('', 429, '', 'Wed, 21 Oct 2026 07:28:00 GMT').retryAfterSeconds).toBeUndefined();
  });

  it('has no code when nothing answered', () => {
    expect(new ApiError('offline', NO_ANSWER_STATUS)).toMatchObject({ status: 0, code: undefined });
  });
});
