import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { addDays } from '../core/job-booking';
import type { QuoteContent } from '../core/quote-versions';
import { immediate, type Db } from '../db/client';
import { crewMembers, crews, invoicePayments, invoices, jobItems, jobProtection, jobs, quoteAnswers, quoteVersions, teamMembers, treeAnalyses } from '../db/schema';

/**
 * A busy team's schedule written straight into the database, for the schedule's query-plan test
 * (server/routes/schedule.plan.test.ts) and its bench (bench/schedule.bench.ts): crews of the
 * account's owner, jobs booked on them over `days` days (one to three days each, some on no
 * crew), each with a tree and a typed line, an accepted version, a deposit invoice on every third
 * (paid on every sixth), a section 211 record on every fifth; accepted jobs waiting; and done jobs
 * with actual times behind each crew's pace. Every table the schedule reads has rows, so every
 * statement of its plan runs. Made as the routes leave them, without the e-mails and the PDFs,
 * which would make 300 bookings take minutes.
 */
export interface ScheduleSeed {
  accountId: number;
  crews: number;
  bookings: number;
  from: string;
  days: number;
  waiting?: number;
  done?: number;
  now: Date;
}

let invoiceNumber = 0;

export function seedSchedule(db: Db, seed: ScheduleSeed): { crewIds: number[]; jobIds: number[] } {
  const { accountId, now } = seed;
  const member = db.select({ id: teamMembers.id }).from(teamMembers).where(eq(teamMembers.userId, accountId)).get()!;
  return immediate(db, (tx) => {
    const crewIds = Array.from({ length: seed.crews }, (_, i) => {
      const crew = tx
        .insert(crews)
        .values({ accountId, name: `Crew ${i + 1}`, colour: null, dayMinutes: 480, equipment: [{ name: 'MEWP', kind: 'mewp' }], createdAt: now, updatedAt: now })
        .returning({ id: crews.id })
        .get();
      tx.insert(crewMembers).values({ crewId: crew.id, memberId: member.id }).run();
      return crew.id;
    });
    const jobIds: number[] = [];
    const makeJob = (i: number, status: 'booked' | 'accepted' | 'done') => {
      const analysis = tx
        .insert(treeAnalyses)
        .values({
          userId: accountId,
          imageUrl: '/seed.jpg',
          species: 'Oak',
          cuttingTimeMin: 60 + (i % 7) * 10,
          cuttingTimeMax: 90 + (i % 7) * 15,
          prepTimeMin: 30,
          prepTimeMax: 45,
          cleanupTimeMin: 40,
          cleanupTimeMax: 60,
          ...(status === 'done' && { actualCuttingTime: 80 + (i % 5) * 10, actualPrepTime: 40, actualCleanupTime: 50 }),
          createdAt: now,
        })
        .returning({ id: treeAnalyses.id })
        .get();
      const crewId = status === 'accepted' || i % 10 === 9 ? null : crewIds[i % crewIds.length]!;
      const days = 1 + (i % 3);
      const job = tx
        .insert(jobs)
        .values({
          userId: accountId,
          status,
          customerName: `Customer ${i}`,
          customerEmail: `customer${i}@example.com`,
          siteAddress: `${i} Oak Lane, Leeds LS6 2AB`,
          vatMode: 'inc',
          ...(status !== 'accepted' && { bookedFor: addDays(seed.from, status === 'done' ? -((i % 60) + 5) : i % seed.days), bookedStart: '08:00', bookedDays: days, bookedAt: now }),
          ...(status === 'done' && { doneAt: new Date(now.getTime() - i * 60_000) }),
          crewId: status === 'done' ? crewIds[i % crewIds.length]! : crewId,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: jobs.id })
        .get();
      const tree = tx.insert(jobItems).values({ jobId: job.id, kind: 'tree', analysisId: analysis.id, description: 'Fell the oak', pricePence: 60_000, position: 0 }).returning({ id: jobItems.id }).get();
      const line = tx.insert(jobItems).values({ jobId: job.id, kind: 'line', description: 'Take the wood away', pricePence: 15_000, position: 1 }).returning({ id: jobItems.id }).get();
      const content: QuoteContent = {
        reference: `Q-${job.id}`,
        version: 1,
        issuedAt: now.toISOString(),
        validUntil: now.toISOString(),
        business: { name: 'Birch Brothers', address: '', phone: '', email: '', vatNumber: '', accentColor: null },
        customer: { name: `Customer ${i}`, email: `customer${i}@example.com`, phone: null, siteAddress: `${i} Oak Lane, Leeds LS6 2AB` },
        vatMode: 'inc',
        vatRatePercent: 20,
        items: [
          { id: tree.id, kind: 'tree', analysisId: analysis.id, description: 'Fell the oak', pricePence: 60_000, optional: false },
          { id: line.id, kind: 'line', analysisId: null, description: 'Take the wood away', pricePence: 15_000, optional: false },
        ],
        terms: '',
        consumer: true,
      };
      const version = tx
        .insert(quoteVersions)
        .values({ jobId: job.id, version: 1, content, contentHash: 'seed', tokenHash: randomBytes(16).toString('hex'), sentTo: `customer${i}@example.com`, sentAt: now, expiresAt: now })
        .returning({ id: quoteVersions.id })
        .get();
      tx.insert(quoteAnswers).values({ versionId: version.id, kind: 'accepted', name: `Customer ${i}`, startEarly: i % 4 !== 0, contentHash: 'seed', address: '127.0.0.1', createdAt: now }).run();
      if (i % 3 === 0) {
        invoiceNumber += 1;
        const invoice = tx
          .insert(invoices)
          .values({
            userId: accountId,
            jobId: job.id,
            versionId: version.id,
            kind: 'deposit',
            depositPercent: 20,
            vatMode: 'inc',
            vatRatePercent: 20,
            netPence: 12_500,
            vatPence: 2_500,
            grossPence: 15_000,
            number: `SEED-${accountId}-${invoiceNumber}`,
            sequence: invoiceNumber,
            issuedAt: now,
            issuedOn: addDays(seed.from, -1),
            dueOn: addDays(seed.from, -1),
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: invoices.id })
          .get();
        if (i % 6 === 0) tx.insert(invoicePayments).values({ invoiceId: invoice.id, amountPence: 15_000, paidOn: addDays(seed.from, -1), method: 'bank_transfer', createdAt: now }).run();
      }
      if (i % 5 === 0) tx.insert(jobProtection).values({ jobId: job.id, outcome: 's211_notice_sent', outcomeOn: seed.from, recordedAt: now, updatedAt: now }).run();
      jobIds.push(job.id);
    };
    for (let i = 0; i < seed.bookings; i += 1) makeJob(i, 'booked');
    for (let i = 0; i < (seed.waiting ?? 10); i += 1) makeJob(seed.bookings + i, 'accepted');
    for (let i = 0; i < (seed.done ?? 20); i += 1) makeJob(seed.bookings + 1000 + i, 'done');
    return { crewIds, jobIds };
  });
}
