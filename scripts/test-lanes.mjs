// `npm test`: every suite, in lanes that run side by side (decision 047).
//
// Measured on the 2-core CI machine, the tests wait far more than they compute: one after another
// they took 1,134 s of wall time for about 755 s of CPU (0.7 of 2 cores); the real-time journeys,
// one at a time on one demo server, were a 540 s chain of their own. Side by side they fill the cores:
//   typed:       from the start, the typecheck and ESLint in one process, sharing their TypeScript
//                programs (check:typed), and the other lint scripts (lint:rest): at a lower
//                priority (nice 10), so they take the cores only when the tests leave them idle;
//   build:       from the start too, the web app (every journey's demo server serves it), the
//                bundles the tests start the server and the companion from
//                (scripts/entry-bundle.mjs), and Vitest's core project (unit-core);
//   then at once:
//   package:     the companion's packages (test:package), then the other Vitest projects (unit);
//   real-time-N: the journeys that wait on the race's clock, in groups on demo servers of their own
//                (E2E_REAL_TIME_GROUP picks a group, playwright.config.ts lists them), then the
//                other journeys (screens) on one more demo server.
// The package step renames each executable into place, so a journey never starts a half-made one.
// Every lane runs to its end; the exit code is the first failure's. Each line is prefixed with its
// lane, and each Playwright run keeps its own artifacts and report (E2E_LANE).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { measureHostPace, PACE_ENV, readPace } from './test-pace.mjs';

const PLAYWRIGHT = ['playwright', 'test', '-c', 'e2e/playwright.config.ts'];
/** The demo servers of the journeys: one per real-time group, then the screens', from E2E_PORT up. */
const basePort = Number(process.env.E2E_PORT ?? 3199);
/** How many real-time groups playwright.config.ts defines (it refuses a group it does not have). */
const REAL_TIME_GROUPS = 3;

const timings = [];

/**
 * What each lane cost: bash's `time` prints, when the lane ends, the CPU of every descendant that
 * was waited for (the demo servers', Vitest's workers'). A browser's renderers outlive the process
 * that waits for them and are missed, so where the machine lets us make a cpuacct cgroup (cgroup
 * v1, as root), each lane runs in one of its own and the cgroup's count is taken instead: every
 * process the lane started, waited for or not. Windows has no such shell: seconds only there.
 */
const CPU_MARK = '::: lane cpu ';
/** bash (for `time`) and `nice`: everywhere but Windows. */
const posix = process.platform !== 'win32';
const CPU_SCRIPT = `[ -n "$LANE_CGROUP" ] && echo $$ > "$LANE_CGROUP/cgroup.procs"; TIMEFORMAT='${CPU_MARK}%U %S'; time "$@"`;
const CGROUP_ROOT = '/sys/fs/cgroup/cpuacct';

/** A cgroup of the lane's own, or null where none can be made (not root, cgroup v2, Windows). */
function laneCgroup(lane) {
  if (!posix) return null;
  const dir = `${CGROUP_ROOT}/flaglight-${process.pid}-${lane}`;
  try {
    fs.mkdirSync(dir);
    return dir;
  } catch {
    return null;
  }
}

/** The cgroup's CPU seconds; it is removed when no process is left in it (else it stays, empty soon). */
function cgroupSeconds(dir) {
  try {
    return Math.round(Number(fs.readFileSync(`${dir}/cpuacct.usage`, 'utf8')) / 1e9);
  } catch {
    return undefined;
  } finally {
    try {
      fs.rmdirSync(dir);
    } catch {
      // A process that outlived its lane (a renderer on its way out) keeps the cgroup a moment.
    }
  }
}

// An earlier run's cgroups that a late process kept: empty now, so they go.
for (const name of posix && fs.existsSync(CGROUP_ROOT) ? fs.readdirSync(CGROUP_ROOT) : []) {
  if (!name.startsWith('flaglight-')) continue;
  try {
    fs.rmdirSync(`${CGROUP_ROOT}/${name}`);
  } catch {
    // Still holds a process of a run going on now.
  }
}

/** User plus system seconds, from the line bash's `time` printed. */
const cpuSeconds = (line) => line.split(' ').reduce((sum, part) => sum + Number(part), 0);

function run(lane, command, args, env = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const prefix = `[${lane}] `;
    const cgroup = laneCgroup(lane);
    let cpu;
    const [file, argv] = posix ? ['bash', ['-c', CPU_SCRIPT, lane, command, ...args]] : [command, args];
    const child = spawn(file, argv, {
      env: { ...process.env, ...env, LANE_CGROUP: cgroup ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const print = (line) => {
      if (line.startsWith(CPU_MARK)) cpu = Math.round(cpuSeconds(line.slice(CPU_MARK.length)));
      else process.stdout.write(prefix + line + '\n');
    };
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) print(line);
      });
      stream.on('end', () => rest && print(rest));
    }
    child.on('error', (error) => {
      process.stdout.write(`${prefix}could not start ${command}: ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (cgroup) cpu = cgroupSeconds(cgroup) ?? cpu;
      const what = [command, ...args].join(' ');
      timings.push({ lane, what, seconds, cpu, code: code ?? signal });
      const used = cpu === undefined ? '' : `, ${cpu} CPU s`;
      process.stdout.write(`${prefix}${what}: exit ${code ?? signal} after ${seconds} s${used}\n`);
      resolve(code ?? 1);
    });
  });
}

const npm = (lane, script) => run(lane, 'npm', ['run', '-s', script]);
const first = (codes) => codes.find((code) => code !== 0) ?? 0;

// Reports of an earlier run would be counted again by scripts/test-summary.mjs.
for (const name of fs.existsSync('test-results') ? fs.readdirSync('test-results') : []) {
  if (/^(playwright|vitest)(-[a-z0-9-]+)?\.json$/.test(name)) fs.rmSync(`test-results/${name}`);
}

/**
 * How much slower this host is than the CI machine the tests' ceilings were tuned on, read once
 * while the machine is quiet; every lane's waits stretch by it (decision 054). A pace already set
 * (a developer's slow laptop) is kept.
 */
const measured = process.env[PACE_ENV] === undefined ? await measureHostPace() : null;
/**
 * In CI the pace is at least 1.5: the reading can only see the host at the run's start, and this
 * machine once read 1.1 there and then ran its journeys like a host reading 1.6 (one core shared
 * with a busy neighbour), failing a journey's 33 s on both tries. A ceiling costs a passing test
 * nothing.
 */
const CI_FLOOR = process.env.CI ? 1.5 : 1;
if (measured) process.env[PACE_ENV] = String(Math.max(measured.pace, CI_FLOOR));
console.log(
  measured
    ? `::: host pace ${process.env[PACE_ENV]} (${measured.ms} ms for the calibration, 220 on the CI machine, so ${measured.pace}; ${CI_FLOOR} at least here): waits stretch by it${process.env.CI ? ', and every ceiling by 3 in CI' : ''}`
    : `::: host pace ${readPace(process.env[PACE_ENV])}, as ${PACE_ENV} set it`,
);

const started = Date.now();

/**
 * The checks that only compute, with no timing in them. On a slow host every lane is starved: at
 * the same priority as the tests, the typed checks took 944 s for 270 CPU s, and Vitest, which
 * waited for them, ran alone on the last 400 s at about one core. Niced, they yield the cores to
 * the tests and fill the gaps the tests leave.
 */
const niced = (lane, script) =>
  posix ? run(lane, 'nice', ['-n', '10', 'npm', 'run', '-s', script]) : npm(lane, script);
// They need nothing built: they start at once and run beside everything.
const checks = Promise.all([niced('typed', 'check:typed'), niced('lint', 'lint:rest')]);

/**
 * First, beside the web app and the bundles that tests start the server and the companion from
 * (decision 053): Vitest's core project, with coverage (its own tests cover flags and sessions
 * whole, vitest.config.ts; V8's precise coverage made the other projects' tests cost about a tenth
 * more CPU). Its property tests and the flags CLI's processes keep Vitest's 5 s limits, so it runs
 * at the tests' priority; here, before the journeys start, it finds the cores free. After the
 * packages, beside the screens on the slower host, it waited 206 s for 41 s of CPU, and every
 * other project waited behind it.
 */
const [webBuilt, bundled, core] = await Promise.all([
  npm('build', 'build'),
  run('bundles', 'node', ['scripts/entry-bundle.mjs', '--build']),
  run('unit-core', 'npx', ['vitest', 'run', '--coverage', '--project', 'core'], {
    VITEST_REPORT: 'test-results/vitest-core.json',
  }),
]);
const built = first([webBuilt, bundled]);

/**
 * The real-time journeys go first, beside the typed checks, lint and the packages: their timing
 * checks (a test flag back on every light within its length plus 2 s) held beside those, and failed
 * when Vitest and the screens ran beside them too. The screens, and Vitest once the packages are
 * done too, start when they are done.
 */
async function realTimeGroups() {
  // Without the web app every journey would fail on a blank page: say it once, run none.
  if (built !== 0) return [built];
  const groups = Array.from({ length: REAL_TIME_GROUPS }, (_, i) => i + 1);
  return Promise.all(
    groups.map((group) =>
      run(`real-time-${group}`, 'npx', [...PLAYWRIGHT, '--project', 'real-time'], {
        E2E_LANE: `real-time-${group}`,
        E2E_REAL_TIME_GROUP: String(group),
        E2E_PORT: String(basePort + group - 1),
      }),
    ),
  );
}
const realTimeDone = realTimeGroups();

async function realTimeThenScreens() {
  const realTime = await realTimeDone;
  if (built !== 0) return realTime;
  const screens = await run('screens', 'npx', [...PLAYWRIGHT, '--project', 'screens'], {
    E2E_LANE: 'screens',
    E2E_PORT: String(basePort + REAL_TIME_GROUPS),
    // Mostly waiting on the page: three at a time.
    E2E_WORKERS: '3',
  });
  return [...realTime, screens];
}

/**
 * Vitest after the packages (beside them, three of its process tests missed their times) and the
 * real-time journeys (its tests beside theirs made theirs miss their times).
 */
async function packageThenUnit() {
  const packaged = await npm('package', 'test:package');
  await realTimeDone;
  return [packaged, await run('unit', 'npx', ['vitest', 'run', '--project', '!core'])];
}

const lanes = await Promise.all([checks, packageThenUnit(), realTimeThenScreens()]);
const code = first([built, core, ...lanes.flat()]);
const lane = (t) => `${t.lane} ${t.seconds}${t.cpu === undefined ? '' : `/${t.cpu}`}`;
console.log(`::: lanes (wall${posix ? '/CPU' : ''} seconds): ${timings.map(lane).join(', ')}`);
console.log(`::: npm test took ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(code);
