import {
  chainedFactor,
  combineTotals,
  factorFromTotals,
  FACTOR_BOUNDS,
  installLog,
  NO_OBSERVATIONS,
  observationTotals,
  PRIOR_JOBS,
  shrunkLog,
  type ComponentTotals,
  type JobKind,
  type PooledTotals,
} from '../core/calibration';
import type { Access, DragDistance, Targets } from '../core/site';
import { chooseMethod, estimateTimes, type TimeModelInput } from '../core/time-model';

/**
 * The pure part of the learning benchmark (docs/analysis.md, Learning from feedback): simulated crews with known biases
 * per kind of job report jobs one by one, and each calibration method estimates the next job.
 * No I/O and no clock: the same seed gives the same figures on any machine.
 */

export type Rng = () => number;

/** mulberry32 (Tommy Ettinger, public domain): a small seeded generator, uniform in [0, 1). */
export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box-Muller). */
export function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}

/** One of `choices`, each with its weight. */
export function weighted<T>(rng: Rng, choices: readonly (readonly [T, number])[]): T {
  const total = choices.reduce((sum, [, w]) => sum + w, 0);
  let at = rng() * total;
  for (const [value, w] of choices) {
    at -= w;
    if (at < 0) return value;
  }
  return choices[choices.length - 1]![0];
}

/** Nearest-rank median, by quickselect (Hoare): a full sort of every cell's samples took seconds. */
export function median(values: ArrayLike<number>): number {
  const a = Float64Array.from(values);
  const k = Math.max(0, Math.ceil(a.length / 2) - 1);
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i += 1;
      while (a[j]! > pivot) j -= 1;
      if (i <= j) {
        [a[i], a[j]] = [a[j]!, a[i]!];
        i += 1;
        j -= 1;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k]!;
}

export const COMPONENTS = ['cutting', 'prep', 'cleanup'] as const;
export type Component = (typeof COMPONENTS)[number];
export const KINDS = ['straight_fell', 'section_fell', 'climb_dismantle'] as const satisfies readonly JobKind[];

/**
 * The mix of jobs a crew gets. Assumption: most domestic work is small trees felled whole or in
 * sections; about one job in five is a climb and dismantle.
 */
export const KIND_MIX: readonly (readonly [JobKind, number])[] = [
  ['straight_fell', 0.5],
  ['section_fell', 0.3],
  ['climb_dismantle', 0.2],
];

/**
 * Job-to-job noise in logs: one draw shared by the whole job (a hard tree is hard throughout)
 * and one per component. sqrt(0.2^2 + 0.15^2) = 0.25, so a component's actual time varies by
 * about 25 % around the crew's bias, the middle of the 20-30 %.
 */
export const JOB_NOISE = { job: 0.2, component: 0.15 } as const;

/** A crew profile: actual / model estimate for each kind of job, applied to every component. */
export type Biases = Record<JobKind, number>;

export interface Job {
  kind: JobKind;
  /** The uncalibrated model estimate, midpoint of each range (what feedback is compared with). */
  estimate: Record<Component, number>;
  /** What the crew took, in whole minutes, as a contractor reports it. */
  actual: Record<Component, number>;
}

/**
 * A tree and site that the time model sends to `kind`: sizes and site answers drawn from
 * plausible domestic ranges (assumptions), redrawn until chooseMethod picks that kind, so the
 * mix of kinds is KIND_MIX and each job's estimate is the real model's.
 */
export function drawTree(rng: Rng, kind: JobKind): TimeModelInput {
  for (;;) {
    const heightFt = 12 * Math.exp(rng() * Math.log(85 / 12));
    const site: TimeModelInput['site'] = {
      targets: weighted<Targets>(rng, [['nothing', 0.4], ['fence_shed', 0.25], ['road', 0.15], ['building', 0.2]]),
      powerLines: rng() < 0.1,
      access: weighted<Access>(rng, [['open', 0.6], ['side_gate', 0.3], ['through_house', 0.1]]),
      dragDistance: weighted<DragDistance>(rng, [['short', 0.5], ['medium', 0.35], ['long', 0.15]]),
      stumpGrinding: rng() < 0.4,
      wasteRemoval: rng() < 0.7,
    };
    if (chooseMethod(heightFt, site.targets, site.powerLines) !== kind) continue;
    return {
      heightFt,
      dbhIn: Math.max(3, heightFt * (0.2 + 0.3 * rng())),
      greenDensityKgM3: 650 + 400 * rng(),
      kind: rng() < 0.25 ? 'conifer' : 'broadleaf',
      site,
    };
  }
}

/** Model estimates (midpoints, minutes) for each kind of job: trees drawn once, jobs then pick from them. */
export type TreePool = Record<JobKind, Record<Component, number>[]>;

/**
 * `perKind` trees of each kind through the real time model. Running the model once per tree
 * rather than once per simulated job keeps the run within seconds; with thousands of trees a
 * kind, a job drawn from the pool is as varied as a freshly drawn one.
 */
export function treePool(rng: Rng, perKind: number): TreePool {
  const pool = {} as TreePool;
  for (const kind of KINDS) {
    pool[kind] = Array.from({ length: perKind }, () => {
      const times = estimateTimes(drawTree(rng, kind));
      return { cutting: (times.cutting.min + times.cutting.max) / 2, prep: (times.prep.min + times.prep.max) / 2, cleanup: (times.cleanup.min + times.cleanup.max) / 2 };
    });
  }
  return pool;
}

export function drawJob(rng: Rng, trees: TreePool, biases: Biases): Job {
  const kind = weighted(rng, KIND_MIX);
  const estimate = trees[kind][Math.floor(rng() * trees[kind].length)]!;
  const jobNoise = JOB_NOISE.job * normal(rng);
  const actual = {} as Record<Component, number>;
  for (const c of COMPONENTS) {
    const ratio = biases[kind] * Math.exp(jobNoise + JOB_NOISE.component * normal(rng));
    actual[c] = Math.max(1, Math.round(estimate[c] * ratio));
  }
  return { kind, estimate, actual };
}

/** A crew's feedback so far, kept as the product keeps it: running totals per component, overall and per kind. */
export interface Feedback {
  jobs: number;
  account: Record<Component, ComponentTotals>;
  byKind: Record<JobKind, Record<Component, ComponentTotals>>;
}

const noTotals = (): Record<Component, ComponentTotals> => ({ cutting: NO_OBSERVATIONS, prep: NO_OBSERVATIONS, cleanup: NO_OBSERVATIONS });

export function noFeedback(): Feedback {
  return { jobs: 0, account: noTotals(), byKind: { straight_fell: noTotals(), section_fell: noTotals(), climb_dismantle: noTotals() } };
}

export function report(feedback: Feedback, job: Job): void {
  feedback.jobs += 1;
  for (const c of COMPONENTS) {
    const added = observationTotals({ estimated: job.estimate[c], actual: job.actual[c] });
    feedback.account[c] = combineTotals(feedback.account[c], added);
    feedback.byKind[job.kind][c] = combineTotals(feedback.byKind[job.kind][c], added);
  }
}

/** The install's pooled totals per component, from other crews' feedback (accounts = how many). */
export function pool(others: readonly Feedback[]): Record<Component, PooledTotals> {
  const pooled = {} as Record<Component, PooledTotals>;
  for (const c of COMPONENTS) {
    pooled[c] = { accounts: others.length, totals: others.reduce((sum, f) => combineTotals(sum, f.account[c]), NO_OBSERVATIONS) };
  }
  return pooled;
}

/** A method's factor for one component of a job of `kind`, from the crew's feedback. */
export type Method = (feedback: Feedback, kind: JobKind, component: Component) => number;

/** The current calibration: one factor per component, whatever the kind of job. */
export const singleFactor: Method = (f, _kind, c) => factorFromTotals(f.account[c]);

/** The chain kind -> account -> (install) -> 1 as core/calibration.ts computes it. */
export const byKind =
  (pooled: Record<Component, PooledTotals> | null): Method =>
  (f, kind, c) =>
    chainedFactor(f.byKind[kind][c], f.account[c], pooled?.[c] ?? null);

/**
 * The same chain with the kind's prior worth `kindPriorJobs` jobs instead of KIND_PRIOR_JOBS,
 * built from core's own shrunkLog and installLog so that only that one number differs (the
 * benchmark checks it equals chainedFactor at KIND_PRIOR_JOBS).
 */
export const byKindWithPrior = (kindPriorJobs: number): Method => {
  // Read once: a module's exports are getters under tsx, and this runs millions of times.
  const [shrink, startLog, accountPriorJobs, { min, max }] = [shrunkLog, installLog(null), PRIOR_JOBS, FACTOR_BOUNDS];
  return (f, kind, c) => {
    const accountLog = shrink(f.account[c], startLog, accountPriorJobs);
    return Math.min(max, Math.max(min, Math.exp(shrink(f.byKind[kind][c], accountLog, kindPriorJobs))));
  };
};

/** Absolute percentage errors of a method's calibrated estimate of `job`: per component and in total. */
export function errors(method: Method, feedback: Feedback, job: Job): Record<Component | 'total', number> {
  const out = {} as Record<Component | 'total', number>;
  let estimated = 0;
  let actual = 0;
  for (const c of COMPONENTS) {
    const calibrated = method(feedback, job.kind, c) * job.estimate[c];
    out[c] = (100 * Math.abs(calibrated - job.actual[c])) / job.actual[c];
    estimated += calibrated;
    actual += job.actual[c];
  }
  out.total = (100 * Math.abs(estimated - actual)) / actual;
  return out;
}

export interface Simulation {
  seed: number;
  /** Simulated crews per profile. */
  crews: number;
  /** Reports after which the next job is estimated. */
  checkpoints: readonly number[];
  /**
   * Possible next jobs estimated at each checkpoint per crew (the crew's real next job and
   * fresh draws from the same crew, none of them reported): more samples, a steadier median.
   */
  nextJobs: number;
  /** Trees of each kind run through the time model (see treePool). */
  treesPerKind: number;
  /**
   * The install a crew joins: `crews` other crews (each of one of `profiles`), `reports` jobs
   * each. `variants` such installs are simulated and crew n joins install n mod variants.
   */
  install: { crews: number; reports: number; profiles: readonly Biases[]; variants: number };
}

/** A method given the install's pooled totals (which most methods ignore). */
export type MethodFactory = (pooled: Record<Component, PooledTotals>) => Method;

/** Median absolute percentage errors: by method, then reports so far, then component or total. */
export type Medians = Record<string, Record<number, Record<Component | 'total', number>>>;

const crewSeed = (seed: number, crew: number, stream: number) => (seed ^ Math.imul(crew + 1, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca6b)) >>> 0;

/**
 * Every crew of one profile reports its jobs one by one; at each checkpoint every method
 * estimates the same next jobs from the same feedback, so the methods differ only in how they
 * calibrate. A crew's jobs depend on the seed and its number, not on its biases: every profile
 * gets the same trees and the same noise.
 */
export function simulate(biases: Biases, methods: Record<string, MethodFactory>, sim: Simulation): Medians {
  const names = Object.keys(methods);
  const keys = [...COMPONENTS, 'total'] as const;
  const perCheckpoint = sim.crews * sim.nextJobs;
  const samples = Object.fromEntries(
    names.map((name) => [
      name,
      Object.fromEntries(sim.checkpoints.map((r) => [r, Object.fromEntries(keys.map((key) => [key, new Float64Array(perCheckpoint)]))])),
    ]),
  ) as Record<string, Record<number, Record<Component | 'total', Float64Array>>>;
  const last = Math.max(...sim.checkpoints);
  const trees = treePool(mulberry32(sim.seed), sim.treesPerKind);

  const installRng = mulberry32(crewSeed(sim.seed, -1, 2));
  const installs = Array.from({ length: sim.install.variants }, () => {
    const others = Array.from({ length: sim.install.crews }, () => {
      const profile = sim.install.profiles[Math.floor(installRng() * sim.install.profiles.length)]!;
      const theirs = noFeedback();
      for (let j = 0; j < sim.install.reports; j += 1) report(theirs, drawJob(installRng, trees, profile));
      return theirs;
    });
    return pool(others);
  });

  for (let crew = 0; crew < sim.crews; crew += 1) {
    const jobsRng = mulberry32(crewSeed(sim.seed, crew, 0));
    const nextRng = mulberry32(crewSeed(sim.seed, crew, 1));
    const pooled = installs[crew % installs.length]!;
    const crewMethods = names.map((name) => [name, methods[name]!(pooled)] as const);

    const feedback = noFeedback();
    for (let reported = 0; reported <= last; reported += 1) {
      const job = drawJob(jobsRng, trees, biases);
      if (sim.checkpoints.includes(reported)) {
        const next = [job, ...Array.from({ length: sim.nextJobs - 1 }, () => drawJob(nextRng, trees, biases))];
        for (const [name, method] of crewMethods) {
          const into = samples[name]![reported]!;
          next.forEach((candidate, i) => {
            const e = errors(method, feedback, candidate);
            for (const key of keys) into[key][crew * sim.nextJobs + i] = e[key];
          });
        }
      }
      report(feedback, job);
    }
  }

  const medians: Medians = {};
  for (const name of names) {
    medians[name] = {};
    for (const r of sim.checkpoints) {
      const s = samples[name]![r]!;
      medians[name][r] = { cutting: median(s.cutting), prep: median(s.prep), cleanup: median(s.cleanup), total: median(s.total) };
    }
  }
  return medians;
}
