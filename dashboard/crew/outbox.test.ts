import { describe, expect, it } from 'vitest';
import { flushOutbox, Outbox, outcomeOfStatus, waitingWords, type NewOutboxItem, type OutboxItem, type OutboxStore, type SendResult } from './outbox';

/** The store as a Map with a rising key, as IndexedDB's autoIncrement gives. */
function memoryStore(): OutboxStore & { items: Map<number, OutboxItem> } {
  const items = new Map<number, OutboxItem>();
  let next = 1;
  return {
    items,
    add: (item) => {
      const id = next++;
      items.set(id, { ...item, id });
      return Promise.resolve(id);
    },
    all: () => Promise.resolve([...items.values()].sort((a, b) => a.id - b.id)),
    put: (item) => {
      items.set(item.id, item);
      return Promise.resolve();
    },
    remove: (id) => {
      items.delete(id);
      return Promise.resolve();
    },
  };
}

const USER = 7;
function change(label: string, extra: Partial<NewOutboxItem> = {}): NewOutboxItem {
  return { userId: USER, jobId: 1, kind: 'work', method: 'POST', path: '/api/jobs/1/work', body: { event: 'start', clientId: `id-${label}-123` }, key: `id-${label}-123`, label, queuedAt: '2026-06-01T08:00:00Z', ...extra };
}

/** A server that counts each work event once by its key, as POST /work does by clientId. */
function fakeServer() {
  const seen: string[] = [];
  const counted = new Set<string>();
  return {
    seen,
    counted,
    send: (answers: Record<string, SendResult> = {}) => (item: OutboxItem) => {
      seen.push(item.label);
      const answer = answers[item.label] ?? { outcome: 'sent' };
      if (answer.outcome === 'sent') counted.add(item.key);
      return Promise.resolve(answer);
    },
  };
}

describe('the crew outbox', () => {
  it('sends the waiting changes in the order they were made, and removes each once sent', async () => {
    const store = memoryStore();
    const outbox = new Outbox(store, fakeServer().send());
    for (const label of ['check', 'sign', 'start', 'stop']) await outbox.add(change(label));
    const server = fakeServer();
    const result = await flushOutbox(store, server.send(), USER);
    expect(server.seen).toEqual(['check', 'sign', 'start', 'stop']);
    expect(result).toEqual({ sent: 4, refused: 0, stoppedBy: null });
    expect(store.items.size).toBe(0);
  });

  it('sends each change once: a second flush finds nothing, and two at once share one batch', async () => {
    const store = memoryStore();
    const server = fakeServer();
    const outbox = new Outbox(store, server.send());
    await outbox.add(change('a'));
    await outbox.add(change('b'));
    const [first, second] = await Promise.all([outbox.flush(USER), outbox.flush(USER)]);
    expect(first).toBe(second);
    await outbox.flush(USER);
    expect(server.seen).toEqual(['a', 'b']);
    expect(outbox.current().last).toBe('sent');
  });

  it('keeps a refused change in "Not sent" with the server\u2019s sentence, and goes on with the next', async () => {
    const store = memoryStore();
    const outbox = new Outbox(store, fakeServer().send({ start: { outcome: 'refused', problem: { status: 409, code: 'CONFLICT', message: 'The office moved this job to 3 June.' } } }));
    await outbox.add(change('start'));
    await outbox.add(change('photo'));
    const result = await outbox.flush(USER);
    expect(result).toEqual({ sent: 1, refused: 1, stoppedBy: null });
    const status = outbox.current();
    expect(status.waiting).toHaveLength(0);
    expect(status.notSent.map((i) => [i.label, i.problem?.message])).toEqual([['start', 'The office moved this job to 3 June.']]);
    // Kept until the person dismisses it, never dropped by a later flush.
    await outbox.flush(USER);
    expect(outbox.current().notSent).toHaveLength(1);
    await outbox.dismiss(status.notSent[0]!.id, USER);
    expect(outbox.current().notSent).toHaveLength(0);
  });

  it('stops at a network failure, keeps that change and every later one, and sends them all on the next try', async () => {
    const store = memoryStore();
    let online = false;
    const server = fakeServer();
    const send = (item: OutboxItem): Promise<SendResult> => (online ? server.send()(item) : Promise.reject(new TypeError('Failed to fetch')));
    const outbox = new Outbox(store, send);
    for (const label of ['start', 'pause', 'resume']) await outbox.add(change(label));
    const offline = await outbox.flush(USER);
    expect(offline.stoppedBy).toBe('retry');
    expect(outbox.current().waiting.map((i) => i.label)).toEqual(['start', 'pause', 'resume']);
    expect(outbox.current().last).toBe('offline');
    expect(waitingWords(outbox.current().waiting.length)).toBe('3 changes waiting to send');
    online = true;
    await outbox.flush(USER);
    expect(server.seen).toEqual(['start', 'pause', 'resume']);
    expect(outbox.current()).toMatchObject({ waiting: [], last: 'sent' });
  });

  it('stops on a 5xx or 429 too, without sending anything after the change still waiting', async () => {
    const store = memoryStore();
    const server = fakeServer();
    const outbox = new Outbox(store, server.send({ b: { outcome: 'retry' } }));
    for (const label of ['a', 'b', 'c']) await outbox.add(change(label));
    await outbox.flush(USER);
    expect(server.seen).toEqual(['a', 'b']);
    expect(outbox.current().waiting.map((i) => i.label)).toEqual(['b', 'c']);
  });

  it('holds a start refused for want of the site check\u2019s signatures: it waits in its place with the sentence, nothing of that job after it goes (another job\u2019s does), and the next try sends all', async () => {
    const store = memoryStore();
    const problem = { status: 409, code: 'SITE_CHECK_MISSING', message: 'The site check must be complete and signed by everyone on site before work starts.', missing: ['A second signature'] };
    let othersSigned = false;
    const server = fakeServer();
    const send = (item: OutboxItem): Promise<SendResult> => (item.label === 'start' && !othersSigned ? Promise.resolve({ outcome: 'held', problem }) : server.send()(item));
    const outbox = new Outbox(store, send);
    for (const label of ['check', 'sign', 'start', 'stop']) await outbox.add(change(label));
    // A photo of another job, taken after the start, is not held up by this job's signature.
    await outbox.add(change('other-job-photo', { jobId: 2, path: '/api/jobs/2/photos' }));
    await outbox.add(change('finish'));
    const first = await outbox.flush(USER);
    expect(first).toEqual({ sent: 3, refused: 0, stoppedBy: 'held' });
    expect(server.seen).toEqual(['check', 'sign', 'other-job-photo']);
    expect(outbox.current().last).toBe('held');
    expect(outbox.current().waiting.map((i) => [i.label, i.problem?.code])).toEqual([['start', 'SITE_CHECK_MISSING'], ['stop', undefined], ['finish', undefined]]);
    expect(outbox.current().notSent).toEqual([]);
    // The other person's signature arrives from their own phone; the next try sends the rest in order.
    othersSigned = true;
    await outbox.flush(USER);
    expect(server.seen).toEqual(['check', 'sign', 'other-job-photo', 'start', 'stop', 'finish']);
    expect(outbox.current()).toMatchObject({ waiting: [], last: 'sent' });
  });

  it('gives a held start its reason where it stands ("Start anyway"), so the taps after it still follow it', async () => {
    const store = memoryStore();
    const server = fakeServer();
    const problem = { status: 409, code: 'SITE_CHECK_MISSING', message: 'missing' };
    const send = (item: OutboxItem): Promise<SendResult> => (item.label === 'start' && !item.body?.reason ? Promise.resolve({ outcome: 'held', problem }) : server.send()(item));
    const outbox = new Outbox(store, send);
    for (const label of ['start', 'stop']) await outbox.add(change(label));
    await outbox.flush(USER);
    const held = outbox.current().waiting[0]!;
    await outbox.revise(held.id, USER, { ...held.body, reason: 'The second climber is on his way' });
    expect(outbox.current().waiting.map((i) => [i.label, i.problem])).toEqual([['start', undefined], ['stop', undefined]]);
    await outbox.flush(USER);
    expect(server.seen).toEqual(['start', 'stop']);
    expect(server.counted.has(held.key)).toBe(true);
    expect(outbox.current().waiting).toEqual([]);
  });

  it('replays harmlessly: a change sent but not yet removed (the page closed) goes again with the same key and counts once', async () => {
    const store = memoryStore();
    const server = fakeServer();
    await store.add({ ...change('start'), state: 'waiting' });
    // The first attempt reached the server, but the phone never heard back.
    const lostAnswer = (item: OutboxItem) => server.send()(item).then((): SendResult => ({ outcome: 'retry' }));
    await flushOutbox(store, lostAnswer, USER);
    await flushOutbox(store, server.send(), USER);
    expect(server.seen).toEqual(['start', 'start']);
    expect(server.counted.size).toBe(1);
    expect(store.items.size).toBe(0);
  });

  it('keeps everything when the session ended, and sends only the signed-in person\u2019s changes', async () => {
    const store = memoryStore();
    const server = fakeServer();
    const outbox = new Outbox(store, server.send({ mine: { outcome: 'signed_out' } }));
    await outbox.add(change('mine'));
    await outbox.add(change('theirs', { userId: 8 }));
    const result = await outbox.flush(USER);
    expect(result.stoppedBy).toBe('signed_out');
    expect(outbox.current().last).toBe('signed_out');
    expect(store.items.size).toBe(2);
    expect(server.seen).toEqual(['mine']);
    expect((await outbox.refresh(8)).waiting.map((i) => i.label)).toEqual(['theirs']);
  });

  it('reads HTTP statuses: 2xx sent, 401 signed out, none/408/429/5xx retry, any other refused', () => {
    expect([200, 201, 204].map(outcomeOfStatus)).toEqual(['sent', 'sent', 'sent']);
    expect(outcomeOfStatus(401)).toBe('signed_out');
    expect([0, 408, 429, 500, 503].map(outcomeOfStatus)).toEqual(Array(5).fill('retry'));
    expect([400, 403, 404, 409, 413, 422].map(outcomeOfStatus)).toEqual(Array(6).fill('refused'));
    expect(waitingWords(1)).toBe('1 change waiting to send');
  });
});
