import { KIND_PRIOR_JOBS, MIN_POOLED_ACCOUNTS } from '../core/calibration';
import { writeSection } from './lib';
import {
  byKind,
  byKindWithPrior,
  COMPONENTS,
  JOB_NOISE,
  KIND_MIX,
  simulate,
  singleFactor,
  type Biases,
  type Medians,
  type MethodFactory,
  type Simulation,
} from './learning-sim';

/**
 * `npm run bench -- learning` (docs/analysis.md, Learning from feedback): does calibration by kind of job learn a crew
 * better than one factor per component? Simulated crews with known biases per kind of job
 * report jobs one by one (bench/learning-sim.ts); the median absolute percentage error of the
 * next job's estimate after 0, 5, 10 and 20 reports, for both methods in the same run on the
 * same jobs. Goals: at 20 reports, by kind at most 0.8x the single factor's error for a crew
 * with opposite biases; at 5 reports, never worse than the single factor for a crew with one
 * uniform bias. Also run with the kind's prior worth 2 to 8 jobs, to show where
 * KIND_PRIOR_JOBS meets both goals. Seeded: the same figures on every run and machine.
 */

const PROFILES: Record<string, { label: string; biases: Biases }> = {
  opposite: {
    label: 'Opposite biases (straight fells 0.75x, section fells 1.0x, dismantles 1.5x)',
    biases: { straight_fell: 0.75, section_fell: 1, climb_dismantle: 1.5 },
  },
  uniform: { label: 'Uniform bias (1.3x on every job)', biases: { straight_fell: 1.3, section_fell: 1.3, climb_dismantle: 1.3 } },
  none: { label: 'No bias (1.0x)', biases: { straight_fell: 1, section_fell: 1, climb_dismantle: 1 } },
};

const SIM: Simulation = {
  seed: 20,
  // 64,000 next-job estimates a cell: enough that the seed moves a median by a few hundredths
  // of a point (seeds 1-4 and 20 measured), against differences of tenths between methods.
  crews: 4000,
  checkpoints: [0, 5, 10, 20],
  nextJobs: 16,
  treesPerKind: 5000,
  // The install a new account joins: five other crews like these, 20 jobs each (200 such installs).
  install: { crews: 5, reports: 20, profiles: Object.values(PROFILES).map((p) => p.biases), variants: 200 },
};
const KIND_PRIORS = [2, 3, 4, 6, 8];
/**
 * "Never worse at 5 reports" is decided on differences of a few hundredths of a point, which
 * is what one seed's sampling moves a median by: so the uniform crew at 5 reports is run again
 * under these seeds too, and the goal holds only if the chain is not worse under any of them.
 */
const MORE_SEEDS = [1, 2, 3, 4];

const SINGLE = 'Single factor (current)';
const BY_KIND = `By kind of job (prior ${KIND_PRIOR_JOBS} jobs)`;
const BY_KIND_INSTALL = 'By kind, install as start';
const withPrior = (k: number) => `by kind, prior ${k}`;

const methods: Record<string, MethodFactory> = {
  [SINGLE]: () => singleFactor,
  [BY_KIND]: () => byKind(null),
  [BY_KIND_INSTALL]: (pooled) => byKind(pooled),
  ...Object.fromEntries(KIND_PRIORS.map((k) => [withPrior(k), () => byKindWithPrior(k)])),
};

const started = performance.now();

// Self-checks: the seed fixes every figure, and the sweep's chain is core's at KIND_PRIOR_JOBS.
const small = { ...SIM, crews: 20 };
if (JSON.stringify(simulate(PROFILES.opposite!.biases, methods, small)) !== JSON.stringify(simulate(PROFILES.opposite!.biases, methods, small))) {
  throw new Error('learning bench: the same seed gave different figures');
}

const results: Record<string, Medians> = {};
for (const [name, profile] of Object.entries(PROFILES)) results[name] = simulate(profile.biases, methods, SIM);

const uniformAtFive = MORE_SEEDS.map((seed) => simulate(PROFILES.uniform!.biases, methods, { ...SIM, seed, checkpoints: [5] }));

if (KIND_PRIORS.includes(KIND_PRIOR_JOBS)) {
  for (const name of Object.keys(PROFILES)) {
    if (JSON.stringify(results[name]![withPrior(KIND_PRIOR_JOBS)]) !== JSON.stringify(results[name]![BY_KIND])) {
      throw new Error(`learning bench: the sweep's chain at prior ${KIND_PRIOR_JOBS} differs from core's chainedFactor`);
    }
  }
}

const pct = (v: number) => `${v.toFixed(1)} %`;
const total = (profile: string, method: string, reports: number) => results[profile]![method]![reports]!.total;

const mainRows = Object.entries(PROFILES).flatMap(([name, profile]) =>
  SIM.checkpoints.map((r) => {
    const single = total(name, SINGLE, r);
    const kind = total(name, BY_KIND, r);
    return `| ${profile.label} | ${r} | ${pct(single)} | ${pct(kind)} | ${(kind / single).toFixed(2)}x | ${pct(total(name, BY_KIND_INSTALL, r))} |`;
  }),
);
const mainTable = [
  `| Crew | Reports | ${SINGLE} | ${BY_KIND} | By kind / single | ${BY_KIND_INSTALL} |`,
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...mainRows,
].join('\n');

const at20 = Math.max(...SIM.checkpoints);
const componentTable = [
  `| Crew | Method | ${COMPONENTS.map((c) => c[0]!.toUpperCase() + c.slice(1)).join(' | ')} | Total |`,
  '| --- | --- | ---: | ---: | ---: | ---: |',
  ...Object.entries(PROFILES).flatMap(([name, profile]) =>
    [SINGLE, BY_KIND].map((method) => {
      const m = results[name]![method]![at20]!;
      return `| ${profile.label} | ${method} | ${COMPONENTS.map((c) => pct(m[c])).join(' | ')} | ${pct(m.total)} |`;
    }),
  ),
].join('\n');

/**
 * Goal 1: by kind <= 0.8x single at 20 reports, opposite biases. Goal 2: by kind <= single at 5
 * reports, uniform bias, under the main seed and each of MORE_SEEDS (`worst` is the largest difference).
 */
function goals(method: string) {
  const opposite = total('opposite', method, 20) / total('opposite', SINGLE, 20);
  const uniform = total('uniform', method, 5) - total('uniform', SINGLE, 5);
  const worst = Math.max(uniform, ...uniformAtFive.map((m) => m[method]![5]!.total - m[SINGLE]![5]!.total));
  return { opposite, uniform, worst, first: opposite <= 0.8, second: worst <= 0 };
}
const points = (v: number) => `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(2)} pt`;

const sweepRows = KIND_PRIORS.map((k) => {
  const g = goals(withPrior(k));
  const cells = Object.keys(PROFILES).map((name) => SIM.checkpoints.map((r) => total(name, withPrior(k), r).toFixed(1)).join(' / '));
  return `| ${k}${k === KIND_PRIOR_JOBS ? ' (core)' : ''} | ${cells.join(' | ')} | ${g.opposite.toFixed(2)}x ${g.first ? 'pass' : 'FAIL'} | ${points(g.uniform)}, worst ${points(g.worst)} ${g.second ? 'pass' : 'FAIL'} |`;
});
const sweepTable = [
  `| Kind prior (jobs) | ${Object.keys(PROFILES).map((n) => `${n}: ${SIM.checkpoints.join(' / ')} reports`).join(' | ')} | Opposite, 20 reports: by kind / single | Uniform, 5 reports: by kind − single (seed ${SIM.seed}; worst of ${MORE_SEEDS.length + 1} seeds) |`,
  '| ---: | ---: | ---: | ---: | ---: | ---: |',
  ...sweepRows,
].join('\n');

const core = goals(BY_KIND);
const verdicts = [
  `- ${core.first ? 'PASS' : 'FAIL'}: opposite biases, 20 reports: by kind ${pct(total('opposite', BY_KIND, 20))} against single ${pct(total('opposite', SINGLE, 20))} = ${core.opposite.toFixed(2)}x (goal at most 0.8x)`,
  `- ${core.second ? 'PASS' : 'FAIL'}: uniform bias, 5 reports: by kind ${pct(total('uniform', BY_KIND, 5))} against single ${pct(total('uniform', SINGLE, 5))}, ${points(core.uniform)}; worst of seeds ${[SIM.seed, ...MORE_SEEDS].join(', ')} ${points(core.worst)} (goal not worse under any)`,
].join('\n');
const satisfying = KIND_PRIORS.filter((k) => goals(withPrior(k)).first && goals(withPrior(k)).second);

const body = `
Simulated crews report jobs one by one; after 0, 5, 10 and 20 reports each method estimates
the next job, and the table gives the median absolute percentage error of its total time (all
three components) against what the crew took. ${SIM.crews} crews per profile, ${SIM.nextJobs}
possible next jobs each per checkpoint, seed ${SIM.seed}. Jobs come ${KIND_MIX.map(([k, w]) => `${Math.round(w * 100)} % ${k.replace('_', ' ')}`).join(', ')},
each a random tree and site run through the real time model (core/time-model.ts, which chooses
the method); a crew's actual time is the estimate times its bias for that kind of job times
log-normal noise (sd ${JOB_NOISE.job} per job and ${JOB_NOISE.component} per component in logs, about 25 % per component).
"${BY_KIND_INSTALL}": the same chain with the install's pooled factors from five other crews
(20 jobs each, profiles drawn from these three; at least ${MIN_POOLED_ACCOUNTS} accounts) as the starting point.

${mainTable}

Per component at ${at20} reports:

${componentTable}

The kind's prior (KIND_PRIOR_JOBS, jobs) swept, no install prior; each cell is the total error
after ${SIM.checkpoints.join(' / ')} reports:

${sweepTable}

Goals with KIND_PRIOR_JOBS = ${KIND_PRIOR_JOBS}:

${verdicts}

Kind priors meeting both goals: ${satisfying.length > 0 ? satisfying.join(', ') : 'none'}.
`;

console.log(body);
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
writeSection('learning', 'Learning from feedback: calibration by kind of job', body);
if (!core.first || !core.second) {
  console.error('learning bench: a goal was missed');
  process.exitCode = 1;
}
