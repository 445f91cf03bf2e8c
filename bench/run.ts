import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commit, machine, ROOT, SECTIONS, type Section } from './lib';

/**
 * `npm run bench`: every bench script in turn, each in its own process (so one's memory and
 * JIT state do not colour the next), then bench/RESULTS.md from their sections under one
 * header with the machine, date and commit. Exits non-zero when any script missed its goal
 * or failed, after running the rest. `npm run bench -- api startup` runs only those.
 */
const SCRIPTS: Record<Section, string> = {
  frontend: 'bench/frontend.bench.ts',
  'phone-photo': 'bench/phone-photo.bench.ts',
  'crew-phone': 'bench/crew-phone.bench.ts',
  startup: 'bench/startup.bench.ts',
  api: 'bench/api.bench.ts',
  analysis: 'bench/analysis.bench.ts',
  capacity: 'bench/capacity.bench.ts',
  restore: 'bench/restore.bench.ts',
  hostile: 'bench/hostile.bench.ts',
  attacks: 'bench/attacks.bench.ts',
  learning: 'bench/learning.bench.ts',
  schedule: 'bench/schedule.bench.ts',
};

const wanted = process.argv.slice(2).filter((a): a is Section => (SECTIONS as readonly string[]).includes(a));
const chosen = wanted.length > 0 ? wanted : [...SECTIONS];
const outcomes: { name: Section; code: number | null; seconds: number }[] = [];
const started = new Date();
const m = machine();

for (const name of chosen) {
  const script = SCRIPTS[name];
  console.log(`\n=== ${name}: node --import tsx ${script}`);
  const t = performance.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, script)], { cwd: ROOT, stdio: 'inherit' });
  outcomes.push({ name, code: run.status, seconds: Math.round((performance.now() - t) / 1000) });
}

const sections = SECTIONS.map((name) => {
  const file = join(ROOT, 'bench/results', `${name}.md`);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : `## ${name}\n\n_Not run yet: \`npm run bench -- ${name}\`._`;
});

const outcomeLine = (o: (typeof outcomes)[number]) =>
  `| ${o.name} | \`${SCRIPTS[o.name]}\` | ${o.code === 0 ? 'within its goals' : `missed a goal or failed (exit ${o.code})`} | ${o.seconds} s |`;

writeFileSync(
  join(ROOT, 'bench/RESULTS.md'),
  `# Benchmark results

Written by \`npm run bench\` (bench/run.ts), which runs every script below in its own process
and joins their sections; \`npm run bench -- api\` re-runs one section. Figures that depend on
the box's speed are given as ratios to a baseline measured in the same run; sizes and memory
are absolute.

- This run: ${started.toISOString()}, commit ${commit()}
- Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB; Node.js ${m.node}; sharp ${m.sharp}, libvips ${m.libvips}
- Load average at the start: ${m.load} (the box is shared; other work slows the timings)

| Section | Script | Outcome | Took |
| --- | --- | --- | ---: |
${outcomes.map(outcomeLine).join('\n')}

${sections.join('\n\n')}
`,
);
console.log('\nwrote bench/RESULTS.md');
const failed = outcomes.filter((o) => o.code !== 0);
if (failed.length > 0) {
  console.error(`bench: ${failed.map((o) => o.name).join(', ')} missed a goal or failed`);
  process.exitCode = 1;
}
