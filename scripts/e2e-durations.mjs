// Where the browser journeys' time went, from the JSON report Playwright writes in the test
// command (playwright-report/e2e-results.json): the run's wall time, its worker time by spec
// file, the slowest tests, and every test that failed or passed only on a retry.
//
//   node scripts/e2e-durations.mjs [report.json] [--top 10]
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const topIndex = args.indexOf("--top");
const top = topIndex >= 0 ? Number(args.splice(topIndex, 2)[1]) : 10;
const file = args[0] ?? "playwright-report/e2e-results.json";
const report = JSON.parse(readFileSync(file, "utf8"));

/** Every test of every spec, with its project, its attempts and their durations. */
function* testsOf(suite, titles = []) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests) {
      yield {
        file: spec.file,
        title: [...titles, spec.title].join(" › "),
        project: test.projectName,
        status: test.status,
        results: test.results,
      };
    }
  }
  for (const child of suite.suites ?? []) {
    yield* testsOf(
      child,
      suite.title && !suite.title.endsWith(".ts") ? [...titles, suite.title] : titles,
    );
  }
}

const tests = report.suites.flatMap((suite) => [...testsOf(suite)]);
const ran = tests.filter((test) => test.results.some((result) => result.status !== "skipped"));
const seconds = (ms) => (ms / 1000).toFixed(1);
const minutes = (ms) => (ms / 60_000).toFixed(1);
const spent = (test) => test.results.reduce((sum, result) => sum + result.duration, 0);

const byFile = new Map();
for (const test of ran) byFile.set(test.file, (byFile.get(test.file) ?? 0) + spent(test));
const workerMs = [...byFile.values()].reduce((sum, ms) => sum + ms, 0);

const { stats } = report;
console.log(
  `Wall time ${minutes(stats.duration)} min; worker time ${minutes(workerMs)} min; ` +
    `${stats.expected} passed, ${stats.unexpected} failed, ${stats.flaky} passed on a retry, ` +
    `${stats.skipped} skipped`,
);
console.log(`\nSlowest ${top} tests (seconds, every attempt):`);
for (const test of [...ran].sort((a, b) => spent(b) - spent(a)).slice(0, top)) {
  console.log(
    `  ${seconds(spent(test)).padStart(6)}  ${test.file} › ${test.title} [${test.project}]`,
  );
}
console.log("\nWorker minutes by spec file:");
for (const [name, ms] of [...byFile].sort((a, b) => b[1] - a[1])) {
  console.log(`  ${minutes(ms).padStart(5)}  ${name}`);
}
const retried = ran.filter((test) => test.results.length > 1 || test.status === "unexpected");
console.log(`\nFailed or retried: ${retried.length}`);
for (const test of retried) {
  const attempts = test.results.map((result) => result.status).join(", ");
  console.log(`  ${test.file} › ${test.title} [${test.project}]: ${attempts}`);
}
