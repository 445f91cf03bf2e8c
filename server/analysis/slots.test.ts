import { describe, expect, it } from 'vitest';
import { DomainError } from '../../core/errors';
import { BUSY_MESSAGE, ImageSlots } from './slots';

/** A promise the test settles by hand, standing for image work in progress. */
function work() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ImageSlots', () => {
  it('runs at most `capacity` at once and lets the rest in, first come first served', async () => {
    const slots = new ImageSlots(2, 5);
    const jobs = Array.from({ length: 4 }, () => work());
    const started: number[] = [];
    const runs = jobs.map((job, i) =>
      slots.run(async () => {
        started.push(i);
        await job.done;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(slots.load).toEqual({ active: 2, waiting: 2, waitingBytes: 0 });

    jobs[1]!.finish();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    jobs[0]!.finish();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    jobs[2]!.finish();
    jobs[3]!.finish();
    await Promise.all(runs);
    expect(slots.load).toEqual({ active: 0, waiting: 0, waitingBytes: 0 });
  });

  it('refuses with BUSY and a Retry-After once the line is full, and takes newcomers again once it moves', async () => {
    const slots = new ImageSlots(1, 1);
    const job = work();
    const first = slots.run(() => job.done);
    const second = slots.run(async () => 'second');
    expect(slots.full).toBe(true);

    const refused = await slots.run(async () => 'never').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'BUSY', status: 503, message: BUSY_MESSAGE });
    expect((refused as DomainError).headers?.['Retry-After']).toMatch(/^[1-9]\d*$/);

    job.finish();
    await first;
    expect(await second).toBe('second');
    expect(await slots.run(async () => 'third')).toBe('third');
  });

  it('bounds the line by the bytes waiting in it as well as by count', async () => {
    const slots = new ImageSlots(1, 10, 1000);
    const job = work();
    const first = slots.run(() => job.done, { bytes: 5000 });
    // What runs is not in line: its bytes do not count.
    const second = slots.run(async () => 'second', { bytes: 600 });
    expect(slots.full).toBe(false);
    await expect(slots.run(async () => 'too big', { bytes: 401 })).rejects.toMatchObject({ code: 'BUSY' });
    const third = slots.run(async () => 'third', { bytes: 400 });
    expect(slots.load).toEqual({ active: 1, waiting: 2, waitingBytes: 1000 });
    expect(slots.full).toBe(true);
    job.finish();
    await first;
    expect([await second, await third]).toEqual(['second', 'third']);
    expect(slots.load).toEqual({ active: 0, waiting: 0, waitingBytes: 0 });
  });

  it('gives the slot back when the work fails', async () => {
    const slots = new ImageSlots(1, 0);
    await expect(slots.run(() => Promise.reject(new Error('decode failed')))).rejects.toThrow('decode failed');
    expect(slots.load).toEqual({ active: 0, waiting: 0, waitingBytes: 0 });
    expect(await slots.run(async () => 'next')).toBe('next');
  });

  it('takes a waiter out of the line when its client goes away', async () => {
    const slots = new ImageSlots(1, 1);
    const job = work();
    const first = slots.run(() => job.done);
    const gone = new AbortController();
    let ran = false;
    const waiting = slots.run(
      async () => {
        ran = true;
      },
      { bytes: 1000, signal: gone.signal },
    );
    expect(slots.load).toEqual({ active: 1, waiting: 1, waitingBytes: 1000 });
    gone.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'ANALYSIS_FAILED' });
    // Its place is free again: the line has room for another.
    expect(slots.load).toEqual({ active: 1, waiting: 0, waitingBytes: 0 });
    expect(slots.full).toBe(false);
    job.finish();
    await first;
    expect(ran).toBe(false);
    expect(slots.load).toEqual({ active: 0, waiting: 0, waitingBytes: 0 });
  });

  it('keeps each instance to itself', async () => {
    const a = new ImageSlots(1, 0);
    const b = new ImageSlots(1, 0);
    const job = work();
    const held = a.run(() => job.done);
    expect(a.full).toBe(true);
    expect(b.full).toBe(false);
    expect(await b.run(async () => 'b')).toBe('b');
    job.finish();
    await held;
  });
});
