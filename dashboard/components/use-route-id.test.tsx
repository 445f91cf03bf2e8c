import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Route, Router } from 'wouter';
import { positiveId, useRouteId } from './use-route-id';

describe('positiveId', () => {
  it('takes a whole number from 1 up', () => {
    expect(positiveId('1')).toBe(1);
    expect(positiveId('12')).toBe(12);
    expect(positiveId(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses anything else', () => {
    for (const text of [null, undefined, '', 'abc', '0', '-3', '1.5', 'NaN', 'Infinity', String(Number.MAX_SAFE_INTEGER + 2)]) {
      expect(positiveId(text), String(text)).toBeUndefined();
    }
  });
});

/** Renders at `address` under the route `/jobs/:id` and returns what useRouteId(name, from) read. */
function readAt(address: string, name?: string, from?: 'path' | 'search'): string {
  const [path, search = ''] = address.split('?');
  function Probe() {
    return <>{String(useRouteId(name, from))}</>;
  }
  return renderToStaticMarkup(
    <Router ssrPath={path} ssrSearch={search}>
      <Route path="/jobs/:id">
        <Probe />
      </Route>
      <Route path="/history">
        <Probe />
      </Route>
    </Router>,
  );
}

describe('useRouteId', () => {
  it("reads the route's :id", () => {
    expect(readAt('/jobs/12')).toBe('12');
    expect(readAt('/jobs/abc')).toBe('undefined');
    expect(readAt('/jobs/0')).toBe('undefined');
  });

  it('reads a search parameter when asked to', () => {
    expect(readAt('/history?job=7', 'job', 'search')).toBe('7');
    expect(readAt('/history?job=x', 'job', 'search')).toBe('undefined');
    expect(readAt('/history', 'job', 'search')).toBe('undefined');
  });
});
