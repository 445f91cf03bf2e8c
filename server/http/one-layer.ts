import type { Env, MiddlewareHandler } from 'hono';

/**
 * Runs middlewares in order as one Hono layer. Each layer Hono composes costs a few
 * microseconds on every request, and the app's every-request middlewares are most of a
 * signed-in read's overhead over a bare route (docs/performance.md, API reads). Semantics stay Hono's: a
 * middleware that answers with a Response instead of calling next sets it as the answer,
 * and a thrown error reaches app.onError from the layer that called the route.
 */
export function inOneLayer<E extends Env>(...middlewares: MiddlewareHandler<E>[]): MiddlewareHandler<E> {
  return (c, next) => {
    const run = async (i: number): Promise<void> => {
      const middleware = middlewares[i];
      if (!middleware) return next();
      const answer = await middleware(c, () => run(i + 1));
      if (answer instanceof Response) c.res = answer;
    };
    return run(0);
  };
}
